package github

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// fakeGitHub is an httptest GitHub that records every request and fails the test on
// any method and path no handler was registered for.
type fakeGitHub struct {
	t     *testing.T
	mux   *http.ServeMux
	srv   *httptest.Server
	mu    sync.Mutex
	calls []string // "METHOD /path", in order
	waits []time.Duration
	// user is the token's login GET /user answers; "" answers 403, as for a
	// workflow's GITHUB_TOKEN (whose comments are then github-actions[bot]'s).
	user string
}

func newFake(t *testing.T) *fakeGitHub {
	t.Helper()
	f := &fakeGitHub{t: t, mux: http.NewServeMux()}
	f.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s %s", r.Method, r.URL)
		http.Error(w, `{"message":"unexpected"}`, http.StatusTeapot)
	})
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.calls = append(f.calls, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		if got := r.Header.Get("Authorization"); got != "Bearer test-token" {
			t.Errorf("%s %s: Authorization = %q", r.Method, r.URL.Path, got)
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet && r.URL.Path == "/user" {
			f.mu.Lock()
			user := f.user
			f.mu.Unlock()
			if user == "" {
				reply(t, w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
				return
			}
			reply(t, w, http.StatusOK, map[string]any{"login": user, "id": 1})
			return
		}
		f.mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// handle registers h for pattern, e.g. "POST /repos/o/r/check-runs".
func (f *fakeGitHub) handle(pattern string, h http.HandlerFunc) { f.mux.HandleFunc(pattern, h) }

// client returns a Client for the fake whose retries record their waits instead of
// sleeping, and whose clock stands at now.
func (f *fakeGitHub) client(now time.Time) *Client {
	f.t.Helper()
	c, err := New(Options{
		Token:      "test-token",
		BaseURL:    f.srv.URL,
		HTTPClient: f.srv.Client(),
		sleep: func(_ context.Context, d time.Duration) error {
			f.mu.Lock()
			f.waits = append(f.waits, d)
			f.mu.Unlock()
			return nil
		},
		now: func() time.Time { return now },
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// requests returns the recorded "METHOD /path" lines.
func (f *fakeGitHub) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// count returns how many recorded requests equal call.
func (f *fakeGitHub) count(call string) int {
	n := 0
	for _, c := range f.requests() {
		if c == call {
			n++
		}
	}
	return n
}

// decode reads a request body into a go-github type, failing the test on bad JSON.
func decode[T any](t *testing.T, r *http.Request) T {
	t.Helper()
	var v T
	if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
		t.Errorf("%s %s: decode body: %v", r.Method, r.URL.Path, err)
	}
	return v
}

// reply writes v as JSON with status code.
func reply(t *testing.T, w http.ResponseWriter, code int, v any) {
	t.Helper()
	w.WriteHeader(code)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		t.Errorf("encode reply: %v", err)
	}
}

// paginate serves items in pages as GitHub does: page and per_page query parameters,
// and a Link header naming the next and last pages.
func paginate[T any](w http.ResponseWriter, r *http.Request, items []T) []T {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 {
		per = 30
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if page <= 0 {
		page = 1
	}
	last := max((len(items)+per-1)/per, 1)
	if page < last {
		u := *r.URL
		u.Scheme, u.Host = "http", r.Host
		link := func(p int, rel string) string {
			q := u.Query()
			q.Set("page", strconv.Itoa(p))
			u.RawQuery = q.Encode()
			return fmt.Sprintf("<%s>; rel=%q", u.String(), rel)
		}
		w.Header().Set("Link", link(page+1, "next")+", "+link(last, "last"))
	}
	lo, hi := min((page-1)*per, len(items)), min(page*per, len(items))
	return items[lo:hi]
}
