package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/evalgate/evalgate/internal/safeio"
)

// Backoff between retries of a failed call, doubling from retryMinBackoff up to
// retryMaxBackoff, unless the answer says how long to wait (Retry-After,
// X-RateLimit-Reset). Within the Client's retry budget and the context's deadline.
const (
	retryMinBackoff = time.Second
	retryMaxBackoff = 30 * time.Second
)

// WaitError is returned when GitHub asks the client to wait (Retry-After, or a rate
// limit that resets later) for longer than the time left: the call gives up at once
// instead of sleeping past its budget.
type WaitError struct {
	Status int           // the answer's HTTP status, e.g. 429
	Wait   time.Duration // how long GitHub asked to wait
	Left   time.Duration // the time left when the call gave up
}

func (e *WaitError) Error() string {
	return fmt.Sprintf("GitHub answered %d %s and asked to wait %s before trying again, more than the %s left of the time budget: gave up without waiting",
		e.Status, http.StatusText(e.Status), e.Wait.Round(time.Second), max(e.Left, 0).Round(100*time.Millisecond))
}

// TimeoutError is returned when one request got no complete answer within the
// per-request timeout. (The HTTP client names the request around it.)
type TimeoutError struct {
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("no complete answer within %s (the request timeout)", e.Timeout)
}

// noBlindRetry marks a request context whose write must not be repeated after an answer
// that does not say whether it was done (a 5xx, a timeout, a lost connection): the
// caller checks first.
type noBlindRetry struct{}

func withoutBlindRetry(ctx context.Context) context.Context {
	return context.WithValue(ctx, noBlindRetry{}, true)
}

// errAttemptTimeout is the cause of a context cancelled by the per-request timeout.
var errAttemptTimeout = errors.New("request timeout")

// retryTransport bounds every request by a timeout, and retries requests GitHub
// answered with a 5xx or a rate limit, idempotent requests that failed in transit, and
// any request that provably never reached GitHub (see neverSent). It gives up,
// returning the last answer, when the next wait would take the call past its budget or
// its context's deadline; when GitHub itself asked for that wait, it says so with a
// *WaitError.
//
// Rate limits: https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api
// (a 403 or 429 with Retry-After, or with X-RateLimit-Remaining: 0 and X-RateLimit-Reset).
type retryTransport struct {
	next    http.RoundTripper
	budget  time.Duration
	timeout time.Duration // per attempt, from the first byte sent to the last received; 0: none
	sleep   func(context.Context, time.Duration) error
	now     func() time.Time
	maxBody int64 // the largest answer read, MaxAnswerBytes
}

func newRetryTransport(next http.RoundTripper, budget, timeout time.Duration, sleep func(context.Context, time.Duration) error, now func() time.Time) *retryTransport {
	if sleep == nil {
		sleep = sleepContext
	}
	if now == nil {
		now = time.Now
	}
	return &retryTransport{next: next, budget: budget, timeout: timeout, sleep: sleep, now: now, maxBody: MaxAnswerBytes}
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
		resp, err, sent := t.attempt(r)
		malformed := false
		if err == nil && wantsJSON(req, resp) {
			if malformed, err = bufferJSON(resp); err != nil {
				resp = nil
			}
		}
		wait, retry, asked := t.retryWait(req, resp, err, sent, attempt)
		if malformed {
			// An HTML error page or a cut-off body with a 200: a proxy's or a
			// replica's hiccup. A read is asked again, as for a 5xx.
			wait, retry, asked = backoff(attempt), true, false
		}
		if !retry || t.budget < 0 || !replayable(req) {
			return resp, err
		}
		left := t.budget - max(t.now().Sub(start), waited)
		if dl, ok := req.Context().Deadline(); ok {
			left = min(left, time.Until(dl))
		}
		if wait > left {
			if asked && resp != nil {
				drain(resp)
				return nil, &WaitError{Status: resp.StatusCode, Wait: wait, Left: left}
			}
			return resp, err
		}
		if resp != nil {
			drain(resp)
		}
		if err := t.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
		waited += wait
	}
}

// attempt sends r once within the per-request timeout. sent is false when the request
// provably never reached the server.
func (t *retryTransport) attempt(r *http.Request) (resp *http.Response, err error, sent bool) {
	ctx, cancel := r.Context(), context.CancelFunc(func() {})
	if t.timeout > 0 {
		ctx, cancel = context.WithTimeoutCause(ctx, t.timeout, errAttemptTimeout)
	}
	var connected atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { connected.Store(true) }})
	resp, err = t.next.RoundTrip(r.WithContext(ctx))
	if err != nil {
		timedOut := context.Cause(ctx) == errAttemptTimeout
		cancel()
		if timedOut {
			err = &TimeoutError{Timeout: t.timeout}
		}
		return nil, err, connected.Load() || !neverSent(err)
	}
	limit := t.maxBody
	resp.Body = &timedBody{ReadCloser: resp.Body, ctx: ctx, cancel: cancel, timeout: t.timeout,
		bounded: safeio.Bounded(resp.Body, limit, func() error { return &TooLargeError{Limit: limit} })}
	return resp, nil, true
}

// MaxAnswerBytes bounds every answer read from the API, whatever its kind: JSON, a
// raw file (GitHub serves files of up to 100 MB raw) or an error page.
const MaxAnswerBytes = maxJSONAnswer

// TooLargeError is an answer cut off at the Client's bound.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("an answer of more than %d bytes: not read further", e.Limit)
}

// timedBody keeps the per-request timeout running while the body is read, and names
// the timeout when it cuts the body short. It reads at most left bytes (the
// transport's maxBody) and fails with a *TooLargeError past them.
type timedBody struct {
	io.ReadCloser
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration
	bounded io.Reader // the body read to its bound (safeio.Bounded)
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.bounded.Read(p)
	var tl *TooLargeError
	if errors.As(err, &tl) {
		return n, err
	}
	if err != nil && err != io.EOF && context.Cause(b.ctx) == errAttemptTimeout {
		err = &TimeoutError{Timeout: b.timeout}
	}
	return n, err
}

func (b *timedBody) Close() error {
	defer b.cancel()
	return b.ReadCloser.Close()
}

// retryWait says whether the outcome of attempt deserves another try, after how long,
// and whether GitHub asked for that wait.
func (t *retryTransport) retryWait(req *http.Request, resp *http.Response, err error, sent bool, attempt int) (wait time.Duration, retry, asked bool) {
	backoff := backoff(attempt)
	if err != nil {
		var tl *TooLargeError
		if req.Context().Err() != nil || errors.As(err, &tl) {
			return 0, false, false // a larger answer next time is no better
		}
		if !sent {
			// Nothing reached GitHub: any request may be sent again.
			return backoff, true, false
		}
		// The request may have reached GitHub: only repeat what is safe to repeat.
		switch req.Method {
		case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
			return backoff, true, false
		}
		return 0, false, false
	}
	h := resp.Header
	if d, ok := parseRetryAfter(h.Get("Retry-After"), t.now()); ok {
		switch resp.StatusCode {
		case http.StatusForbidden, http.StatusTooManyRequests, http.StatusServiceUnavailable:
			return d, true, true
		}
	}
	switch {
	case resp.StatusCode >= 500:
		if req.Context().Value(noBlindRetry{}) != nil {
			return 0, false, false
		}
		return backoff, true, false
	case resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests:
		if h.Get("X-RateLimit-Remaining") == "0" {
			if d, ok := resetWait(h.Get("X-RateLimit-Reset"), t.now()); ok {
				return d, true, true
			}
			return backoff, true, false
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			return backoff, true, false
		}
	}
	return 0, false, false
}

// backoff is the wait before retry number attempt+1 when GitHub named none.
func backoff(attempt int) time.Duration {
	b := retryMinBackoff << attempt
	if b > retryMaxBackoff || b <= 0 || attempt > 30 {
		b = retryMaxBackoff
	}
	return b
}

// maxJSONAnswer bounds a JSON answer read to check it (a page of 100 comments of
// 65,536 characters is about 26 MB with JSON escapes).
const maxJSONAnswer = 128 << 20

// wantsJSON reports whether resp answers with 200 a read whose answer must be JSON:
// its body is checked before it is handed on. Every read here asks for JSON (go-github
// spells some of its preview types without "+json") but a raw file read.
func wantsJSON(req *http.Request, resp *http.Response) bool {
	accept := req.Header.Get("Accept")
	return req.Method == http.MethodGet && resp.StatusCode == http.StatusOK &&
		!strings.Contains(accept, ".raw") && !strings.Contains(accept, "octet-stream")
}

// bufferJSON reads resp's body (at most maxJSONAnswer bytes) and puts it back, and
// reports whether it is not JSON. err is a failure to read it.
func bufferJSON(resp *http.Response) (malformed bool, err error) {
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONAnswer+1))
	resp.Body.Close()
	if err != nil {
		return false, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if len(b) > maxJSONAnswer {
		return false, fmt.Errorf("an answer of more than %d MiB", maxJSONAnswer>>20)
	}
	return !json.Valid(b), nil
}

// resetWait reads X-RateLimit-Reset, the Unix second the limit resets at, as the wait
// until then plus one second (the reset is rounded down to the second). A reset beyond
// what a Duration holds is the longest wait: time.Unix of a huge second overflows to a
// date in the past, which read as no wait and retried at once, for ever.
func resetWait(v string, now time.Time) (time.Duration, bool) {
	reset, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false
	}
	if reset > now.Unix() && reset-now.Unix() >= int64(math.MaxInt64/time.Second)-1 { // both positive: no overflow
		return math.MaxInt64, true
	}
	return max(time.Unix(reset, 0).Sub(now)+time.Second, 0), true
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil && s >= 0 {
		if s > int64(math.MaxInt64/time.Second) {
			return math.MaxInt64, true // longer than any budget, and no overflow
		}
		return time.Duration(s) * time.Second, true
	}
	if strings.Trim(v, "0123456789") == "" {
		return math.MaxInt64, true // too many digits for 64 bits: as long as can be
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

// drain reads a little of an answer that is not used, so its connection can be reused.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
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
