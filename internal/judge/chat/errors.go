package chat

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/evalgate/evalgate/internal/originauth"
)

// StatusError is an HTTP error reply from the endpoint.
type StatusError struct {
	StatusCode int
	// RetryAfter is what the server asked us to wait (Retry-After-Ms or Retry-After),
	// zero when it did not say.
	RetryAfter time.Duration
	// Body is the start of the reply body, for the error message.
	Body string
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("chat completions: HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// TimeoutError is a call that got no full reply within the per-call timeout.
type TimeoutError struct {
	After time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("chat completions: no reply within %s", e.After)
}

// retryable reports whether another attempt may succeed: rate limits, server errors,
// timeouts and transport failures, as the OpenAI SDKs do. Other 4xx replies (bad key,
// unknown model, bad request) will fail the same way again.
func retryable(err error) bool {
	var re *originauth.RedirectError
	if errors.As(err, &re) {
		return false // the endpoint sends its callers elsewhere: asking again changes nothing
	}
	var tl *ReplyTooLargeError
	if errors.As(err, &tl) {
		return false // a reply as long again is no better
	}
	var se *StatusError
	if errors.As(err, &se) {
		switch {
		case se.StatusCode == http.StatusRequestTimeout, se.StatusCode == http.StatusConflict,
			se.StatusCode == http.StatusTooManyRequests, se.StatusCode >= 500:
			return true
		}
		return false
	}
	return true // timeouts and transport errors
}

// IsFatal reports whether err says the whole run cannot succeed, rather than one
// call: a bad key, no permission, an unknown model or path, or a transport failure
// that survived the retries (the endpoint is unreachable).
func IsFatal(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		switch se.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
			return true
		}
		return false
	}
	var te *TimeoutError
	return !errors.As(err, &te)
}
