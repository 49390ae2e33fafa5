package github

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// noSleep replaces the retry waits: the tests count them instead of sleeping.
func noSleep(context.Context, time.Duration) error { return nil }

// A server that accepts the request and never answers: each request gives up after
// the request timeout; a read is tried again, a write is not (it may have been done).
// Tries are counted where the client sends them: on a loaded machine a try may time
// out before the server's handler runs, so the server may see fewer (never more).
func TestRequestTimeout(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		method    string
		wantCalls int32
	}{
		// Retry waits 1+2+4+8+16 s (not slept) fit the 60 s budget; the sixth try ends it.
		{http.MethodGet, 6},
		{http.MethodPost, 1},
	} {
		var handled atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			handled.Add(1)
			<-r.Context().Done() // never answers
		}))
		t.Cleanup(srv.Close)
		ct := &countingTransport{next: http.DefaultTransport.(*http.Transport).Clone()}
		c, err := New(Options{BaseURL: srv.URL, HTTPClient: &http.Client{Transport: ct}, RequestTimeout: 50 * time.Millisecond, sleep: noSleep})
		if err != nil {
			t.Fatal(err)
		}
		req, _ := c.gh.NewRequest(tt.method, "repos/o/r/issues/1/comments", nil)
		done := make(chan error, 1)
		go func() {
			_, err := c.gh.Do(context.Background(), req, nil)
			done <- err
		}()
		select {
		case err = <-done:
		case <-time.After(time.Minute): // six tries of 50 ms; a minute only catches a hang
			t.Fatalf("%s: no answer after a minute: the request timeout did not cut the tries", tt.method)
		}
		var te *TimeoutError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "no complete answer within 50ms") {
			t.Errorf("%s: err = %v, want a TimeoutError", tt.method, err)
		}
		if got := ct.calls.Load(); got != tt.wantCalls {
			t.Errorf("%s: %d tries, want %d", tt.method, got, tt.wantCalls)
		}
		srv.Close() // waits for the handlers, so their count is final
		if got := handled.Load(); got > tt.wantCalls {
			t.Errorf("%s: the server saw %d requests, more than the %d tries", tt.method, got, tt.wantCalls)
		}
	}
}

// An answer whose body stops half way is cut by the same timeout.
func TestRequestTimeoutCoversTheBody(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id": 1, "body": "`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	c, err := New(Options{BaseURL: srv.URL, RequestTimeout: 50 * time.Millisecond, sleep: noSleep})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := c.gh.Issues.CreateComment(context.Background(), "o", "r", 1, &gh.IssueComment{Body: gh.String("x")})
		done <- err
	}()
	select {
	case err := <-done:
		var te *TimeoutError
		if !errors.As(err, &te) {
			t.Errorf("err = %v, want a TimeoutError", err)
		}
	case <-time.After(time.Minute): // the timeout is 50 ms; a minute only catches a hang
		t.Fatal("reading a stalled body did not time out")
	}
}

// GitHub asking to wait an hour is not waited for: the call gives up at once and says
// why, for a write as for a read.
func TestRetryAfterBeyondTheBudget(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.handle("POST /repos/o/r/check-runs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		reply(t, w, http.StatusTooManyRequests, map[string]string{"message": "You have exceeded a secondary rate limit"})
	})
	start := time.Now()
	_, err := f.client(time.Now()).StartCheckRun(context.Background(), "o", "r", "evalgate", "abc", "")
	var we *WaitError
	if !errors.As(err, &we) || we.Wait != time.Hour || we.Status != http.StatusTooManyRequests {
		t.Fatalf("err = %v, want a WaitError for 1h", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "asked to wait 1h0m0s") || !strings.Contains(msg, "gave up without waiting") {
		t.Errorf("message %q does not say what happened", msg)
	}
	// No wait recorded is the proof; the minute only catches a real hour-long sleep.
	if len(f.waits) != 0 || f.count("POST /repos/o/r/check-runs") != 1 || time.Since(start) > time.Minute {
		t.Errorf("waited %v over %d requests", f.waits, f.count("POST /repos/o/r/check-runs"))
	}
}

// A short Retry-After that still fits the budget is waited for, but never past the
// context's deadline.
func TestRetryStopsAtTheDeadline(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.handle("GET /repos/o/r/pulls/7", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "5")
		reply(t, w, http.StatusTooManyRequests, map[string]string{"message": "slow down"})
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := f.client(time.Now()).PullRequest(ctx, "o", "r", 7)
	var we *WaitError
	if !errors.As(err, &we) || we.Wait != 5*time.Second || we.Left > 2*time.Second {
		t.Fatalf("err = %v, want a WaitError with under 2s left", err)
	}
	if len(f.waits) != 0 {
		t.Errorf("waited %v", f.waits)
	}
}

// countingTransport counts round trips before handing them on.
type countingTransport struct {
	next  http.RoundTripper
	calls atomic.Int32
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.calls.Add(1)
	return c.next.RoundTrip(r)
}

// A write that provably never reached the server is sent again: the connection was
// refused, or the TLS handshake failed. None of them reached a handler.
func TestRetryWritesThatNeverLeft(t *testing.T) {
	t.Parallel()
	refused := func(t *testing.T) string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return "http://" + addr
	}
	var handled atomic.Int32
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handled.Add(1) })
	untrusted := httptest.NewTLSServer(handler) // its certificate is not trusted by the client
	t.Cleanup(untrusted.Close)
	plain := httptest.NewServer(handler) // speaks HTTP where TLS is expected
	t.Cleanup(plain.Close)
	for _, tt := range []struct {
		name, url, wantErr string
	}{
		{"connection refused", refused(t), "connection refused"},
		{"TLS certificate not trusted", untrusted.URL, "certificate"},
		{"not TLS at all", strings.Replace(plain.URL, "http:", "https:", 1), "HTTP response to HTTPS client"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ct := &countingTransport{next: http.DefaultTransport.(*http.Transport).Clone()}
			c, err := New(Options{BaseURL: tt.url, HTTPClient: &http.Client{Transport: ct}, sleep: noSleep})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.StartCheckRun(context.Background(), "o", "r", "evalgate", "abc", "")
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
			// Waits 1+2+4+8+16 s (not slept) fit the 60 s budget: six tries.
			if got := ct.calls.Load(); got != 6 {
				t.Errorf("%d tries of the POST, want 6", got)
			}
		})
	}
	if n := handled.Load(); n != 0 {
		t.Errorf("%d requests reached a handler", n)
	}
}

// A DNS failure is retried too; a reset after the request was sent is not.
func TestNeverSent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"DNS failure", &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "api.github.com", IsNotFound: true}}, true},
		{"connection refused", &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, true},
		{"TLS alert from the server", &net.OpError{Op: "remote error", Err: errors.New("tls: handshake failure")}, true},
		{"reset while reading the answer", &net.OpError{Op: "read", Err: syscall.ECONNRESET}, false},
		{"a timeout", &TimeoutError{Timeout: time.Second}, false},
		{"unknown", errors.New("connection reset by peer"), false},
	}
	for _, tt := range tests {
		if got := neverSent(tt.err); got != tt.want {
			t.Errorf("%s: neverSent = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Retry-After comes from the server: any value parses to a wait that is never negative,
// or to none.
func FuzzParseRetryAfter(f *testing.F) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{"3600", "0", "-1", "1e9", "99999999999999999999", "Sat, 01 Mar 2025 12:00:05 GMT", "Fri, 28 Feb 2025 00:00:00 GMT", "soon", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := parseRetryAfter(v, now)
		if ok && d < 0 {
			t.Fatalf("parseRetryAfter(%q) = %s", v, d)
		}
		if !ok && d != 0 {
			t.Fatalf("parseRetryAfter(%q) = %s, false", v, d)
		}
	})
}

// Delays too long for a time.Duration are as long as can be, never negative (a negative
// wait would retry at once, again and again).
func TestParseRetryAfterHuge(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"9227000000", "99999999999999999999999"} {
		if d, ok := parseRetryAfter(v, time.Now()); !ok || d < 100*365*24*time.Hour {
			t.Errorf("parseRetryAfter(%q) = %s, %v; want a huge wait", v, d, ok)
		}
	}
}

// FuzzResetWait: X-RateLimit-Reset comes from the server: any value is no wait, or a
// wait never negative, and at least a second for a reset still to come (so a far one
// is never read as "retry now").
func FuzzResetWait(f *testing.F) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{"1740830405", "0", "-1", "9223372036854775807", "-9223372036854775808", "9223372035", "12x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := resetWait(v, now)
		if !ok {
			return
		}
		if d < 0 {
			t.Fatalf("resetWait(%q) = %s", v, d)
		}
		if reset, _ := strconv.ParseInt(v, 10, 64); reset > now.Unix() && d < time.Second {
			t.Fatalf("resetWait(%q), a reset to come, = %s", v, d)
		}
	})
}
