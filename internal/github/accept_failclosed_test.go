package github

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// Whatever goes wrong reading the acceptance, a maintainer's 10:05 label on a commit
// pushed at 10:00 accepts nothing, and the call says why: each request in turn answers
// 403, 404, 500, an HTML page, JSON cut short, a suite time that is not a time, an
// answer past the body bound (4 KiB here), or never answers before the deadline.
func TestAcceptanceFailsClosed(t *testing.T) {
	t.Parallel()
	const label = "evalgate/accept"
	const limit = 4 << 10
	failures := map[string]func(w http.ResponseWriter, r *http.Request){
		"403": func(w http.ResponseWriter, r *http.Request) {
			reply(t, w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
		},
		"404": func(w http.ResponseWriter, r *http.Request) {
			reply(t, w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		},
		"500": func(w http.ResponseWriter, r *http.Request) {
			reply(t, w, http.StatusInternalServerError, map[string]string{"message": "Server Error"})
		},
		"html": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<!DOCTYPE html><html><body>Unicorn!</body></html>")
		},
		"cut short": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"total_count":1,"check_suites":[{"id":1,"created_at":"2026-11`)
		},
		"bad time": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"total_count":1,"check_suites":[{"id":1,"created_at":"yesterday"}]}`)
		},
		"too large": func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"total_count":1,"check_suites":[{"id":1,"created_at":"2026-11-27T10:00:00Z","head_branch":"`+strings.Repeat("x", limit)+`"}]}`)
		},
		"no answer": func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
	}
	for _, step := range []string{"events", "permission", "check-suites"} {
		for name, fail := range failures {
			if step == "permission" && (name == "404" || name == "bad time") {
				continue // a user GitHub does not know, or no permission given: no write access, no error
			}
			t.Run(step+"/"+name, func(t *testing.T) {
				t.Parallel()
				f := acceptFake(t, []string{label}, []*gh.IssueEvent{labeled("maintainer", label, labeledAfter)}, suitesAt(pushed))
				served := f.mux
				f.mux = http.NewServeMux()
				f.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
					if strings.Contains(r.URL.Path, "/"+step) {
						fail(w, r)
						return
					}
					served.ServeHTTP(w, r)
				})
				c, err := New(Options{Token: "test-token", BaseURL: f.srv.URL, HTTPClient: f.srv.Client(), maxBody: limit,
					sleep: func(context.Context, time.Duration) error { return nil }})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				got, err := c.Acceptance(ctx, "o", "r", 7, acceptHead, label, nil)
				if got.By() != "" || err == nil {
					t.Errorf("Acceptance = %+v, %v: By %q; want nothing accepted and an error", got, err, got.By())
				}
			})
		}
	}
}
