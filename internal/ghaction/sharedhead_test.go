package ghaction

import (
	"net/http"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	gh "github.com/google/go-github/v60/github"
)

// A fork opens two pull requests from one commit: #2 into master, whose gate its results
// fail, and #3 into an old branch whose gate (or none) they pass. The check run goes on
// the commit, so #3's pass would show on #2 too. In a privileged run (the fork's only
// way to a check run) a passing verdict on a commit that an open pull request into
// another branch shares concludes failure instead, naming it; one into the same branch,
// or this pull request itself, changes nothing; nor does anything under pull_request.
func TestRunRefusesAHeadSharedWithAPullRequestIntoAnotherBranch(t *testing.T) {
	t.Parallel()
	pr := func(n int, sha, base string) *gh.PullRequest {
		return &gh.PullRequest{Number: gh.Int(n), State: gh.String("open"),
			Head: &gh.PullRequestBranch{SHA: gh.String(sha), Repo: &gh.Repository{FullName: gh.String("someone/Hello-World")}},
			Base: &gh.PullRequestBranch{Ref: gh.String(base), Repo: &gh.Repository{FullName: gh.String(owner + "/" + repo)}}}
	}
	passing := func(CheckInput) (*Outcome, error) {
		return &Outcome{Suite: "tutor", Verdict: gate.Pass, Score: 0.97, CommentMarkdown: "### ✅ evalgate"}, nil
	}
	fork := func(m map[string]any) {
		m["pull_request"].(map[string]any)["head"].(map[string]any)["repo"].(map[string]any)["full_name"] = "someone/Hello-World"
	}
	for _, tt := range []struct {
		name, event string
		open        []*gh.PullRequest // nil: the listing is refused (403)
		want        string            // the check run's conclusion
	}{
		{"the open pull requests cannot be listed", "pull_request_target", nil, "failure"},
		{"another pull request into another branch", "pull_request_target", []*gh.PullRequest{pr(2, headSHA, "master"), pr(3, headSHA, "v0-legacy")}, "failure"},
		{"another pull request into the same branch", "pull_request_target", []*gh.PullRequest{pr(2, headSHA, "master"), pr(4, headSHA, "master")}, "success"},
		{"another branch's pull request at another commit", "pull_request_target", []*gh.PullRequest{pr(2, headSHA, "master"), pr(3, laterSHA, "v0-legacy")}, "success"},
		{"workflow_run: another pull request into another branch", "workflow_run", []*gh.PullRequest{pr(2, headSHA, "master"), pr(3, headSHA, "v0-legacy")}, "failure"},
		// Under pull_request a fork's run writes no check run, and a pull request from
		// this repository can edit the workflow (the threat model): nothing is listed.
		{"pull_request from this repository", "pull_request", []*gh.PullRequest{pr(2, headSHA, "master"), pr(3, headSHA, "v0-legacy")}, "success"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := fakeOptions{baseFiles: baseFiles, openPRs: tt.open}
			if tt.open == nil {
				o.fault = func(w http.ResponseWriter, r *http.Request, _ func(http.ResponseWriter, *http.Request)) bool {
					if r.Method != http.MethodGet || r.URL.Path != prefix+"/pulls" {
						return false
					}
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusForbidden)
					_, _ = w.Write([]byte(`{"message":"Resource not accessible by integration"}`))
					return true
				}
			}
			api := newFakeAPI(t, o)
			edit, file := fork, "pull_request.opened.json"
			switch tt.event {
			case "pull_request":
				edit = nil
			case "workflow_run":
				edit, file = nil, "workflow_run.completed.json"
			}
			env := newActionEnv(t, api.srv.URL, tt.event, file, edit, nil)
			code := env.run(fakeCheck(&seen{}, passing), nil)
			if len(api.updates) == 0 {
				t.Fatalf("no check run concluded; log:\n%s", env.stdout.String())
			}
			u := api.updates[len(api.updates)-1]
			if got := u.GetConclusion(); got != tt.want {
				t.Fatalf("check run %q (exit %d); want %q; log:\n%s", got, code, tt.want, env.stdout.String())
			}
			if tt.want != "failure" {
				return
			}
			want, wantCode := "commit ec26c3e is also the head of pull request \\#3 into v0-legacy", ExitBadInput
			if tt.open == nil {
				want, wantCode = "cannot tell whether pull requests into other branches share commit ec26c3e", ExitCouldNotRun
			}
			if code != wantCode {
				t.Errorf("exit %d; want %d", code, wantCode)
			}
			if s := u.GetOutput().GetSummary(); !strings.Contains(s, want) {
				t.Errorf("the check run does not say %q:\n%s", want, s)
			}
		})
	}
}
