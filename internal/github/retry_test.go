package github

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gh "github.com/google/go-github/v60/github"
)

// TestRetry runs GET pulls/7 against answers scripted per attempt.
func TestRetry(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	type answer struct {
		code    int
		headers map[string]string
	}
	ok := answer{code: http.StatusOK}
	bad := answer{code: http.StatusBadGateway}
	tests := []struct {
		name      string
		answers   []answer // the last one repeats
		wantCalls int
		wantWaits []time.Duration
		wantErr   bool
	}{{
		name:      "502 twice, then success: exponential backoff",
		answers:   []answer{bad, bad, ok},
		wantCalls: 3,
		wantWaits: []time.Duration{time.Second, 2 * time.Second},
	}, {
		name: "403 rate limit with Retry-After",
		answers: []answer{{code: http.StatusForbidden, headers: map[string]string{
			"Retry-After": "7",
		}}, ok},
		wantCalls: 2,
		wantWaits: []time.Duration{7 * time.Second},
	}, {
		name:      "429 with Retry-After as a date",
		answers:   []answer{{code: http.StatusTooManyRequests, headers: map[string]string{"Retry-After": now.Add(3 * time.Second).Format(http.TimeFormat)}}, ok},
		wantCalls: 2,
		wantWaits: []time.Duration{3 * time.Second},
	}, {
		name: "403 primary rate limit: wait for X-RateLimit-Reset, plus a second for rounding",
		answers: []answer{{code: http.StatusForbidden, headers: map[string]string{
			"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": strconv.FormatInt(now.Add(5*time.Second).Unix(), 10),
		}}, ok},
		wantCalls: 2,
		wantWaits: []time.Duration{6 * time.Second},
	}, {
		name:      "403 without rate-limit headers is a permission error: no retry",
		answers:   []answer{{code: http.StatusForbidden}},
		wantCalls: 1,
		wantErr:   true,
	}, {
		name:      "404 is final",
		answers:   []answer{{code: http.StatusNotFound}},
		wantCalls: 1,
		wantErr:   true,
	}, {
		// Waits 1+2+4+8+16 = 31 s; the next (30 s, the cap) would pass the 60 s budget.
		name:      "502 for ever: gives up within the budget",
		answers:   []answer{bad},
		wantCalls: 6,
		wantWaits: []time.Duration{1 * time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second},
		wantErr:   true,
	}, {
		// time.Unix of the largest int64 overflows to a date in the past, so the wait
		// came out as none and the request was sent again at once, for ever.
		name: "a rate-limit reset past any date is not waited for",
		answers: []answer{{code: http.StatusForbidden, headers: map[string]string{
			"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "9223372036854775807",
		}}},
		wantCalls: 1,
		wantErr:   true,
	}, {
		name:      "a reset an hour away is not waited for",
		answers:   []answer{{code: http.StatusForbidden, headers: map[string]string{"Retry-After": "3600"}}},
		wantCalls: 1,
		wantErr:   true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			calls := 0
			f.handle("GET /repos/o/r/pulls/7", func(w http.ResponseWriter, r *http.Request) {
				a := tt.answers[min(calls, len(tt.answers)-1)]
				calls++
				for k, v := range a.headers {
					w.Header().Set(k, v)
				}
				reply(t, w, a.code, map[string]any{"number": 7, "message": http.StatusText(a.code)})
			})
			_, err := f.client(now).PullRequest(context.Background(), "o", "r", 7)
			if (err != nil) != tt.wantErr {
				t.Errorf("err = %v, want error: %v", err, tt.wantErr)
			}
			if calls != tt.wantCalls {
				t.Errorf("%d calls, want %d", calls, tt.wantCalls)
			}
			if diff := cmp.Diff(tt.wantWaits, f.waits); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRetryResendsBody(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var bodies []string
	var made []*gh.IssueComment
	f.handle("POST /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
		in := decode[gh.IssueComment](t, r)
		bodies = append(bodies, in.GetBody())
		if len(bodies) == 1 {
			reply(t, w, http.StatusServiceUnavailable, map[string]string{"message": "unavailable"})
			return
		}
		made = append(made, &gh.IssueComment{ID: gh.Int64(1), Body: in.Body, User: &gh.User{Login: gh.String(ActionsBot)}})
		reply(t, w, http.StatusCreated, made[0])
	})
	f.handle("GET /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusOK, made)
	})
	if _, err := f.client(time.Now()).UpsertComment(context.Background(), publication("hello", CommentAlways)); err != nil {
		t.Fatal(err)
	}
	want := []string{testMarker + "\nhello", testMarker + "\nhello"}
	if diff := cmp.Diff(want, bodies); diff != "" {
		t.Errorf("bodies (-want +got):\n%s", diff)
	}
}

// flaky fails its first round trip in transit, then answers 200.
type flaky struct{ calls int }

func (f *flaky) RoundTrip(r *http.Request) (*http.Response, error) {
	f.calls++
	if f.calls == 1 {
		return nil, errors.New("connection reset by peer")
	}
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("{}")), Header: http.Header{}, Request: r}, nil
}

func TestRetryTransportErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method    string
		wantCalls int
		wantErr   bool
	}{
		{http.MethodGet, 2, false},
		{http.MethodPut, 2, false},
		{http.MethodPost, 1, true}, // may have reached GitHub: not repeated
		{http.MethodPatch, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			t.Parallel()
			next := &flaky{}
			rt := newRetryTransport(next, time.Minute, 0, func(context.Context, time.Duration) error { return nil }, nil)
			req, err := http.NewRequest(tt.method, "http://127.0.0.1/x", bytes.NewBufferString(`{"a":1}`))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := rt.RoundTrip(req)
			if err == nil {
				resp.Body.Close()
			}
			if (err != nil) != tt.wantErr || next.calls != tt.wantCalls {
				t.Errorf("err = %v after %d calls; want error %v after %d", err, next.calls, tt.wantErr, tt.wantCalls)
			}
		})
	}
}
