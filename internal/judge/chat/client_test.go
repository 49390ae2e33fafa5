package chat_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"

	"github.com/evalgate/evalgate/internal/judge/chat"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// sleepRecorder stands in for the wait between attempts, so tests see the delays the
// client chose without spending them.
type sleepRecorder struct {
	mu     sync.Mutex
	delays []time.Duration
}

func (s *sleepRecorder) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delays = append(s.delays, d)
	return nil
}

// fixedBackoff is 7 ms whatever the retry, a value no Retry-After in these tests uses.
func fixedBackoff(int) time.Duration { return 7 * time.Millisecond }

func params() openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:    "judge-2024-01-01",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
	}
}

func TestCompleteRetries(t *testing.T) {
	t.Parallel()
	ok := chattest.Reply{Content: "fine"}
	tests := []struct {
		name       string
		replies    []chattest.Reply
		maxRetries int
		wantCalls  int
		wantDelays []time.Duration
		wantStatus int // 0: success
	}{
		{
			name:      "first call succeeds",
			replies:   []chattest.Reply{ok},
			wantCalls: 1,
		},
		{
			name:       "429 with Retry-After seconds is honoured",
			replies:    []chattest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "2"}}, ok},
			maxRetries: 3,
			wantCalls:  2,
			wantDelays: []time.Duration{2 * time.Second},
		},
		{
			name:       "Retry-After-Ms wins over Retry-After",
			replies:    []chattest.Reply{{Status: 429, Header: map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}}, ok},
			maxRetries: 3,
			wantCalls:  2,
			wantDelays: []time.Duration{250 * time.Millisecond},
		},
		{
			name:       "500 then success uses the backoff",
			replies:    []chattest.Reply{{Status: 500}, {Status: 503}, ok},
			maxRetries: 3,
			wantCalls:  3,
			wantDelays: []time.Duration{7 * time.Millisecond, 7 * time.Millisecond},
		},
		{
			// 1 + MaxRetries(2) = 3 requests, never more.
			name:       "retries are bounded",
			replies:    []chattest.Reply{{Status: 502}},
			maxRetries: 2,
			wantCalls:  3,
			wantDelays: []time.Duration{7 * time.Millisecond, 7 * time.Millisecond},
			wantStatus: 502,
		},
		{
			name:       "401 is not retried",
			replies:    []chattest.Reply{{Status: 401}, ok},
			maxRetries: 3,
			wantCalls:  1,
			wantStatus: 401,
		},
		{
			// 3 minutes is over the 2-minute cap: a quota is gone, waiting will not help.
			name:       "a Retry-After beyond the cap stops",
			replies:    []chattest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "180"}}, ok},
			maxRetries: 3,
			wantCalls:  1,
			wantStatus: 429,
		},
		{
			// 1e10 s is 1e19 ns, past the 9.2e18 a Duration holds: it must still read
			// as beyond the cap, not wrap to a negative wait that falls back to the
			// backoff and retries.
			name:       "a Retry-After too long for a Duration stops",
			replies:    []chattest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "10000000000"}}, ok},
			maxRetries: 3,
			wantCalls:  1,
			wantStatus: 429,
		},
		{
			name:       "a Retry-After-Ms too long for a Duration stops",
			replies:    []chattest.Reply{{Status: 429, Header: map[string]string{"Retry-After-Ms": "1e300"}}, ok},
			maxRetries: 3,
			wantCalls:  1,
			wantStatus: 429,
		},
		{
			name:       "an error body that is not JSON still gives the status",
			replies:    []chattest.Reply{{Status: 503, Body: "<html>bad gateway</html>"}, ok},
			maxRetries: 1,
			wantCalls:  2,
			wantDelays: []time.Duration{7 * time.Millisecond},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := chattest.New(t, "/v1", chattest.Sequence(tt.replies...))
			rec := &sleepRecorder{}
			c := chat.New(chat.Config{BaseURL: srv.BaseURL(), APIKey: "k", MaxRetries: tt.maxRetries},
				chat.WithSleep(rec.sleep), chat.WithBackoff(fixedBackoff))
			rep, err := c.Complete(context.Background(), params(), 0)
			var se *chat.StatusError
			switch {
			case tt.wantStatus == 0 && err != nil:
				t.Fatalf("Complete: %v", err)
			case tt.wantStatus != 0 && (!errors.As(err, &se) || se.StatusCode != tt.wantStatus):
				t.Fatalf("Complete error = %v; want HTTP %d", err, tt.wantStatus)
			}
			if got := srv.Calls(); got != tt.wantCalls {
				t.Errorf("server saw %d calls; want %d", got, tt.wantCalls)
			}
			if rep.Attempts != tt.wantCalls {
				t.Errorf("Reply.Attempts = %d; want %d", rep.Attempts, tt.wantCalls)
			}
			if diff := cmp.Diff(tt.wantDelays, rec.delays); diff != "" {
				t.Errorf("delays (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompleteTimeout(t *testing.T) {
	t.Parallel()
	// The server would take 90 s; the client gives each attempt 50 ms and one retry.
	srv := chattest.New(t, "", chattest.Always(chattest.Reply{Delay: 90 * time.Second}))
	rec := &sleepRecorder{}
	c := chat.New(chat.Config{BaseURL: srv.BaseURL(), Timeout: 50 * time.Millisecond, MaxRetries: 1},
		chat.WithSleep(rec.sleep), chat.WithBackoff(fixedBackoff))
	start := time.Now()
	rep, err := c.Complete(context.Background(), params(), 0)
	var te *chat.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("Complete error = %v; want a TimeoutError", err)
	}
	// The client counts its attempts; the server may see fewer, when a loaded machine
	// ends an attempt before the request arrives, but never more.
	if rep.Attempts != 2 || srv.Calls() > 2 {
		t.Errorf("attempts = %d, server calls = %d; want 2 and at most 2", rep.Attempts, srv.Calls())
	}
	// Two 50 ms attempts; a minute leaves room for any load on the machine yet proves
	// we did not wait for the 90 s reply.
	if el := time.Since(start); el > time.Minute {
		t.Errorf("Complete took %s; the per-call timeout did not cut it short", el)
	}
	if chat.IsFatal(err) {
		t.Errorf("IsFatal(timeout) = true; a timeout concerns one call, not the run")
	}
}

func TestCompleteReportsModelAndHeaders(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{
		Content: "x", Model: "judge-2024-01-01-snap", Fingerprint: "fp_1",
		Header: map[string]string{"Openai-Processing-Ms": "42"},
	}))
	c := chat.New(chat.Config{BaseURL: srv.BaseURL()})
	rep, err := c.Complete(context.Background(), params(), 0)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{rep.Completion.Model, rep.Completion.SystemFingerprint, rep.Header.Get("openai-processing-ms")}
	if diff := cmp.Diff([]string{"judge-2024-01-01-snap", "fp_1", "42"}, got); diff != "" {
		t.Errorf("model, fingerprint, processing ms (-want +got):\n%s", diff)
	}
}

func TestBeforeAttemptStops(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Status: 500}))
	stop := errors.New("budget")
	n := 0
	c := chat.New(chat.Config{BaseURL: srv.BaseURL(), MaxRetries: 5},
		chat.WithSleep((&sleepRecorder{}).sleep),
		chat.WithBeforeAttempt(func() error {
			n++
			if n > 2 {
				return stop
			}
			return nil
		}))
	_, err := c.Complete(context.Background(), params(), 0)
	if !errors.Is(err, stop) {
		t.Fatalf("Complete error = %v; want the hook's error", err)
	}
	// The hook allowed 2 attempts and refused the third.
	if srv.Calls() != 2 {
		t.Errorf("server saw %d calls; want 2", srv.Calls())
	}
}

func TestIsFatal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want bool
	}{
		{&chat.StatusError{StatusCode: http.StatusUnauthorized}, true},
		{&chat.StatusError{StatusCode: http.StatusNotFound}, true},
		{&chat.StatusError{StatusCode: http.StatusTooManyRequests}, false},
		{&chat.StatusError{StatusCode: http.StatusBadRequest}, false},
		{&chat.TimeoutError{After: time.Second}, false},
		{errors.New("dial tcp: connection refused"), true},
	}
	for _, tt := range tests {
		if got := chat.IsFatal(tt.err); got != tt.want {
			t.Errorf("IsFatal(%v) = %v; want %v", tt.err, got, tt.want)
		}
	}
}
