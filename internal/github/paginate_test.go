package github

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// A server whose Link header always names page 2 (Prism serves the spec's example
// header that way) must not keep the client looping.
func TestListAllStopsWhenLinkDoesNotAdvance(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.handle("GET /repos/o/r/pulls/7/files", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<http://`+r.Host+`/repos/o/r/pulls/7/files?page=2>; rel="next"`)
		reply(t, w, http.StatusOK, []map[string]string{{"filename": "a.go"}})
	})
	got, err := f.client(time.Now()).ChangedFiles(context.Background(), "o", "r", 7)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.count("GET /repos/o/r/pulls/7/files"); n != 2 || len(got) != 2 {
		t.Errorf("%d requests and %d files, want 2 and 2 (pages 1 and 2, then stop)", n, len(got))
	}
}
