package ghaction

import (
	"net/http"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/testdata/originauthtest"
)

// The API redirects the comment's create (307) and then every read (301) to another
// origin: nothing is sent there, the token least of all; the comment fails and says
// why, naming both origins, comment-url stays empty and failed-channels names it. A
// redirected read of the base commit fails closed.
func TestRedirectToAnotherOrigin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name         string
		only         func(*http.Request) bool
		code         int
		wantExit     int
		wantVerdict  string
		wantFailed   string
		wantComments int
	}{
		{"307 on the comment's create", func(r *http.Request) bool {
			return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/issues/2/comments")
		}, http.StatusTemporaryRedirect, ExitGateFailed, "fail", "comment", 0},
		{"301 on the base config read", func(r *http.Request) bool {
			return strings.Contains(r.URL.Path, "/contents/")
		}, http.StatusMovedPermanently, ExitCouldNotRun, "error", "", 0}, // a base read that fails: could not run
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			away := originauthtest.NewElsewhere(t, `{"id":1,"html_url":"https://evil.example/c/1"}`)
			api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles, fault: func(w http.ResponseWriter, r *http.Request, _ func(http.ResponseWriter, *http.Request)) bool {
				if !tt.only(r) {
					return false
				}
				originauthtest.Redirect(away.URL, tt.code).ServeHTTP(w, r)
				return true
			}})
			env := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.opened.json", nil, nil)
			if code := env.run(fakeCheck(&seen{}, failing), nil); code != tt.wantExit {
				t.Errorf("exit code %d, want %d; log:\n%s", code, tt.wantExit, env.stdout.String())
			}
			away.CheckUntouched(t)
			out := env.readOutputs(t)
			if out["verdict"] != tt.wantVerdict || out["failed-channels"] != tt.wantFailed || out["comment-url"] != "" {
				t.Errorf("outputs verdict %q, failed-channels %q, comment-url %q; want %q, %q and none", out["verdict"], out["failed-channels"], out["comment-url"], tt.wantVerdict, tt.wantFailed)
			}
			summary := env.readSummary(t)
			if !strings.Contains(summary, "refused a redirect from "+api.srv.URL) || !strings.Contains(summary, away.URL) {
				t.Errorf("the summary does not name the refused redirect and both origins:\n%.3000s", summary)
			}
			api.mu.Lock()
			defer api.mu.Unlock()
			if len(api.comments) != tt.wantComments {
				t.Errorf("%d comments, want %d", len(api.comments), tt.wantComments)
			}
		})
	}
}
