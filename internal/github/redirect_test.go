package github

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/originauth"
	"github.com/evalgate/evalgate/internal/testdata/originauthtest"
)

// A GitHub that redirects (301, 302 or 307) to another origin, 127.0.0.2, never gets
// the token sent there, nor its answer taken: the gate's file is not read from there, no
// comment is posted there, no check suite times are read there, and the error names
// both origins.
func TestRedirectToAnotherOriginIsRefused(t *testing.T) {
	t.Parallel()
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			t.Parallel()
			away := originauthtest.NewElsewhere(t, `{"type":"file","encoding":"base64","content":"Z2F0ZTogZXZpbA==","id":1,"html_url":"https://evil.example/c/1"}`)
			f := newFake(t)
			f.mux = http.NewServeMux()
			f.mux.Handle("/", originauthtest.Redirect(away.URL, code))
			c := f.client(time.Now())
			ctx := context.Background()

			_, err := c.FileAtRef(ctx, "o", "r", "evalgate.yaml", "base")
			checkRedirectRefused(t, err, f.srv.URL, away.URL)
			url, err := c.UpsertComment(ctx, publication("score 0.9", CommentAlways))
			checkRedirectRefused(t, err, f.srv.URL, away.URL)
			if url != "" {
				t.Errorf("comment URL %q; want none", url)
			}
			_, err = c.StartCheckRun(ctx, "o", "r", "evalgate", "abc", "")
			checkRedirectRefused(t, err, f.srv.URL, away.URL)
			// When the head commit was pushed, which decides whether an acceptance counts.
			at, err := c.pushedAt(ctx, "o", "r", "abc")
			checkRedirectRefused(t, err, f.srv.URL, away.URL)
			if !at.IsZero() {
				t.Errorf("push time %s read from elsewhere", at)
			}

			away.CheckUntouched(t)
		})
	}
}

// An https API that redirects to plain http: refused, nothing sent there.
func TestRedirectFromHTTPSToHTTPIsRefused(t *testing.T) {
	t.Parallel()
	away := originauthtest.NewElsewhere(t, `[]`)
	srv := originauthtest.NewRedirector(t, true, away.URL, http.StatusMovedPermanently)
	c, err := New(Options{Token: "test-token", BaseURL: srv.URL, HTTPClient: srv.Client(), RetryBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.PullRequest(context.Background(), "o", "r", 7)
	var re *originauth.RedirectError
	if !errors.As(err, &re) || !re.Downgrade {
		t.Errorf("err = %v; want a refused downgrade", err)
	}
	checkRedirectRefused(t, err, srv.URL, away.URL)
	if auth := srv.Authorizations(); len(auth) != 1 || auth[0] != "Bearer test-token" {
		t.Errorf("the API saw Authorization %q", auth)
	}
	away.CheckUntouched(t)
}

// checkRedirectRefused wants err to be a refused redirect naming both origins.
func checkRedirectRefused(t *testing.T, err error, from, to string) {
	t.Helper()
	var re *originauth.RedirectError
	if !errors.As(err, &re) {
		t.Errorf("err = %v; want a refused redirect", err)
		return
	}
	if !strings.Contains(err.Error(), strings.TrimSuffix(from, "/")) || !strings.Contains(err.Error(), to) {
		t.Errorf("err = %v; want both origins, %s and %s, named", err, from, to)
	}
}
