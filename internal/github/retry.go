package github

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Backoff between retries of a failed call, doubling from retryMinBackoff up to
// retryMaxBackoff, unless the answer says how long to wait (Retry-After,
// X-RateLimit-Reset). Within the Client's retry budget.
const (
	retryMinBackoff = time.Second
	retryMaxBackoff = 30 * time.Second
)

// retryTransport retries requests GitHub answered with a 5xx or a rate limit, and
// idempotent requests that failed in transit. It gives up, returning the last answer,
// when the next wait would take the call past budget.
//
// Rate limits: https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api
// (a 403 or 429 with Retry-After, or with X-RateLimit-Remaining: 0 and X-RateLimit-Reset).
type retryTransport struct {
	next   http.RoundTripper
	budget time.Duration
	sleep  func(context.Context, time.Duration) error
	now    func() time.Time
}

func newRetryTransport(next http.RoundTripper, budget time.Duration, sleep func(context.Context, time.Duration) error, now func() time.Time) *retryTransport {
	if sleep == nil {
		sleep = sleepContext
	}
	if now == nil {
		now = time.Now
	}
	return &retryTransport{next: next, budget: budget, sleep: sleep, now: now}
}

// RoundTrip implements http.RoundTripper.
func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := t.now()
	var waited time.Duration // the sleeps alone, in case the clock does not move (tests)
	for attempt := 0; ; attempt++ {
		r := req
		if attempt > 0 {
			r = req.Clone(req.Context())
			if req.Body != nil && req.Body != http.NoBody {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				r.Body = body
			}
		}
		resp, err := t.next.RoundTrip(r)
		wait, retry := t.retryWait(req, resp, err, attempt)
		spent := max(t.now().Sub(start), waited)
		if !retry || t.budget < 0 || spent+wait > t.budget || !replayable(req) {
			return resp, err
		}
		if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
		}
		if err := t.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
		waited += wait
	}
}

// retryWait says whether the outcome of attempt deserves another try, and after how long.
func (t *retryTransport) retryWait(req *http.Request, resp *http.Response, err error, attempt int) (time.Duration, bool) {
	backoff := retryMinBackoff << attempt
	if backoff > retryMaxBackoff || backoff <= 0 {
		backoff = retryMaxBackoff
	}
	if err != nil {
		// The request may have reached GitHub: only repeat what is safe to repeat.
		if req.Context().Err() != nil {
			return 0, false
		}
		switch req.Method {
		case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
			return backoff, true
		}
		return 0, false
	}
	h := resp.Header
	if d, ok := parseRetryAfter(h.Get("Retry-After"), t.now()); ok {
		switch resp.StatusCode {
		case http.StatusForbidden, http.StatusTooManyRequests, http.StatusServiceUnavailable:
			return d, true
		}
	}
	switch {
	case resp.StatusCode >= 500:
		return backoff, true
	case resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests:
		if h.Get("X-RateLimit-Remaining") == "0" {
			if reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil {
				// One extra second: the reset time is rounded down to the second.
				d := time.Unix(reset, 0).Sub(t.now()) + time.Second
				return max(d, 0), true
			}
			return backoff, true
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			return backoff, true
		}
	}
	return 0, false
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

// replayable reports whether req's body can be sent again.
func replayable(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
}

func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}
