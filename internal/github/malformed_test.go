package github

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// One page of the comment list answered 200 with an HTML error page, or with JSON cut
// short, is asked again (after the first backoff), so the sticky comment is still found
// and updated, not duplicated. A read that never gets JSON gives up within its budget.
func TestMalformedPageIsReadAgain(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		"<!DOCTYPE html><html><body>Unicorn! We are having trouble</body></html>",
		`[{"id":1001,"body":"cut sh`,
	} {
		t.Run(bad[:10], func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			filler := make([]string, 150) // per_page 100: the sticky is on page 2
			for i := range filler {
				filler[i] = fmt.Sprintf("comment %d", i)
			}
			s := newCommentStore(t, f, append(filler, testMarker+"\nold")...)
			served := f.mux
			page2 := 0
			f.mux = http.NewServeMux()
			f.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet && r.URL.Query().Get("page") == "2" {
					if page2++; page2 == 1 {
						w.Header().Set("Content-Type", "text/html")
						io.WriteString(w, bad)
						return
					}
				}
				served.ServeHTTP(w, r)
			})
			url, err := f.client(time.Now()).UpsertComment(context.Background(), publication("new", CommentAlways))
			if err != nil {
				t.Fatal(err)
			}
			if want := "https://github.com/o/r/pull/7#issuecomment-1151"; url != want {
				t.Errorf("url %q, want %q", url, want)
			}
			if got := s.bodies(); len(got) != 151 || got[150] != testMarker+"\nnew" {
				t.Errorf("%d comments, last %q; want 151, the sticky updated", len(got), got[len(got)-1])
			}
			var backoffs []time.Duration // the settle waits after writes take no time here: the clock stands still
			for _, w := range f.waits {
				if w >= time.Millisecond {
					backoffs = append(backoffs, w)
				}
			}
			if diff := cmp.Diff([]time.Duration{time.Second}, backoffs); diff != "" {
				t.Errorf("backoffs (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("never JSON", func(t *testing.T) {
		t.Parallel()
		f := newFake(t)
		f.handle("GET /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "<html>maintenance</html>")
		})
		c, err := New(Options{Token: "test-token", BaseURL: f.srv.URL, HTTPClient: f.srv.Client(), RetryBudget: 7 * time.Second,
			sleep: func(context.Context, time.Duration) error { return nil }, now: time.Now})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.UpsertComment(context.Background(), publication("x", CommentAlways))
		if err == nil || !strings.Contains(err.Error(), "list comments on o/r#7") {
			t.Errorf("err = %v; want the listing's failure", err)
		}
		// Budget 7 s: waits of 1, 2 and 4 s fit, the next 8 s does not: 4 requests.
		if n := f.count("GET /repos/o/r/issues/7/comments"); n != 4 {
			t.Errorf("%d listings, want 4", n)
		}
	})
}
