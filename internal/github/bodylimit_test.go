package github

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// Every answer is read up to the Client's bound and no further, whatever its kind: a
// raw file (what a pull request's head commit holds, in a privileged workflow), an
// error page, JSON. Past it the call fails with a *TooLargeError, once (a larger answer
// is not asked for again); at the bound it is read whole.
func TestAnswersAreBounded(t *testing.T) {
	t.Parallel()
	const limit = 4 << 10
	f := newFake(t)
	var raw atomic.Int32
	f.handle("GET /repos/o/r/contents/", func(w http.ResponseWriter, r *http.Request) {
		size := limit + 1
		if strings.HasSuffix(r.URL.Path, "/fits.json") {
			size = limit
		}
		if r.Header.Get("Accept") == "application/vnd.github.raw" {
			raw.Add(1)
			w.Write([]byte(strings.Repeat("x", size)))
			return
		}
		reply(t, w, http.StatusOK, &gh.RepositoryContent{Type: gh.String("file"), Encoding: gh.String("none"), Content: gh.String("")})
	})
	f.handle("GET /repos/o/r/pulls/7", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"message":"` + strings.Repeat("x", 2*limit) + `"}`))
	})
	c, err := New(Options{Token: "test-token", BaseURL: f.srv.URL, HTTPClient: f.srv.Client(), maxBody: limit,
		sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var tl *TooLargeError
	if got, err := c.FileAtRef(ctx, "o", "r", "big.json", "base"); !errors.As(err, &tl) || len(got) != 0 {
		t.Errorf("FileAtRef of a file over the bound = %d bytes, %v; want a *TooLargeError", len(got), err)
	}
	if raw.Load() != 1 {
		t.Errorf("the file over the bound was asked for %d times; want once", raw.Load())
	}
	if got, err := c.FileAtRef(ctx, "o", "r", "fits.json", "base"); err != nil || len(got) != limit {
		t.Errorf("FileAtRef of a file at the bound = %d bytes, %v; want %d", len(got), err, limit)
	}
	if _, err := c.PullRequest(ctx, "o", "r", 7); err == nil {
		t.Error("a 404 with a long error page: no error")
	}
}
