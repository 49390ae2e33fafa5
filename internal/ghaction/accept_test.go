package ghaction

import (
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
)

// laterSHA is a commit the author pushes after the maintainer's label.
const laterSHA = "0b1d2c3e4f5a60718293a4b5c6d7e8f901234567"

// A maintainer accepts the regression of commit headSHA (pushed at 10:00, label at
// 10:05): neutral. The author then pushes laterSHA (10:10) with the label still on: the
// label accepted an earlier commit, so the later one fails, and the comment, the check
// run's summary and the log say why and how to accept it.
func TestRunAcceptanceStaysWithTheLabeledCommit(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles,
		labels: []string{"evalgate/accept"}, labeledBy: "octocat", writers: []string{"octocat"},
		pushed: map[string]time.Time{headSHA: fakePushed, laterSHA: fakeLabeled.Add(5 * time.Minute)}})

	env := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.synchronize.json", nil, nil)
	if code := env.run(fakeCheck(&seen{}, failing), nil); code != ExitPass {
		t.Fatalf("the accepted commit: exit %d, want %d; log:\n%s", code, ExitPass, env.stdout.String())
	}
	if got := api.updates[len(api.updates)-1].GetConclusion(); got != "neutral" {
		t.Errorf("the accepted commit's check: %q, want neutral", got)
	}

	later := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.synchronize.json", func(m map[string]any) {
		m["pull_request"].(map[string]any)["head"].(map[string]any)["sha"] = laterSHA
	}, nil)
	if code := later.run(fakeCheck(&seen{}, failing), nil); code != ExitGateFailed {
		t.Fatalf("the later push: exit %d, want %d; log:\n%s", code, ExitGateFailed, later.stdout.String())
	}
	last := api.updates[len(api.updates)-1]
	if got := last.GetConclusion(); got != "failure" {
		t.Errorf("the later push's check: %q, want failure", got)
	}
	if c := api.creates[len(api.creates)-1]; c.HeadSHA != laterSHA {
		t.Errorf("check run on %s, want %s", c.HeadSHA, laterSHA)
	}
	// 10:05 label, 10:10 push.
	const why = "@octocat accepted an earlier commit (the `evalgate/accept` label was applied 2026-11-27 10:05:00 UTC); " +
		"commit `0b1d2c3` was pushed after it (2026-11-27 10:10:00 UTC): remove and re-apply the `evalgate/accept` label to accept this one."
	comment := api.comments[0].GetBody()
	if want := marker("tutor") + "\n> [!WARNING]\n> " + why + "\n"; !strings.HasPrefix(comment, want) {
		t.Errorf("the comment does not start by saying the label is stale; want prefix\n%s\ngot:\n%s", want, comment)
	}
	if strings.Contains(comment, "Regression accepted") {
		t.Errorf("the comment says the regression is accepted:\n%s", comment)
	}
	if s := last.GetOutput().GetSummary(); !strings.HasPrefix(s, "> [!WARNING]\n> "+why) {
		t.Errorf("check run summary does not start with the stale label:\n%s", s)
	}
	if log := later.stdout.String(); !strings.Contains(log, "::warning::evalgate: "+why) {
		t.Errorf("log lacks the stale label:\n%s", log)
	}
}

// Under workflow_run the label is weighed against the commit the producer tested, the
// one the check run goes on, not the pull request's head now: commit headSHA (pushed
// 10:00, labeled 10:05) is accepted although the pull request has since moved on to
// laterSHA (10:10), whose own run will be judged on its own.
func TestRunWorkflowRunAcceptanceIsTheTestedCommits(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles, prHead: laterSHA,
		labels: []string{"evalgate/accept"}, labeledBy: "octocat", writers: []string{"octocat"},
		pushed: map[string]time.Time{headSHA: fakePushed, laterSHA: fakeLabeled.Add(5 * time.Minute)}})
	env := newActionEnv(t, api.srv.URL, "workflow_run", "workflow_run.completed.json", nil, nil)
	if code := env.run(fakeCheck(&seen{}, failing), nil); code != ExitPass {
		t.Fatalf("exit %d, want %d; log:\n%s", code, ExitPass, env.stdout.String())
	}
	if c := api.creates[0]; c.HeadSHA != headSHA {
		t.Errorf("check run on %s, want the tested %s", c.HeadSHA, headSHA)
	}
	if got := api.updates[len(api.updates)-1].GetConclusion(); got != "neutral" {
		t.Errorf("check %q, want neutral", got)
	}
	var suites []string
	for _, c := range api.requests() {
		if strings.HasSuffix(c, "/check-suites") {
			suites = append(suites, c)
		}
	}
	if want := "GET /commits/" + headSHA + "/check-suites"; len(suites) != 1 || suites[0] != want {
		t.Errorf("check suites read: %q, want [%s]", suites, want)
	}
}

// The stale-label notice in each case, with its untrusted parts escaped: a login is
// markdown-escaped, a label cannot close its code span.
func TestStaleAcceptanceNotice(t *testing.T) {
	t.Parallel()
	labeled := fakeLabeled // 10:05
	tests := []struct {
		name string
		acc  github.Acceptance
		want string
	}{{
		name: "pushed after the label",
		acc:  github.Acceptance{Labeler: "octocat", LabeledAt: labeled, HeadSHA: laterSHA, PushedAt: labeled.Add(5 * time.Minute)},
		want: "> [!WARNING]\n> @octocat accepted an earlier commit (the `evalgate/accept` label was applied 2026-11-27 10:05:00 UTC); " +
			"commit `0b1d2c3` was pushed after it (2026-11-27 10:10:00 UTC): remove and re-apply the `evalgate/accept` label to accept this one.\n\n",
	}, {
		name: "no check suite: the push time is unknown",
		acc:  github.Acceptance{Labeler: "octocat", LabeledAt: labeled, HeadSHA: laterSHA},
		want: "> [!WARNING]\n> @octocat's `evalgate/accept` label (applied 2026-11-27 10:05:00 UTC) does not count: when commit `0b1d2c3` reached GitHub cannot be told " +
			"(GitHub lists no check suite for it, or the token may not read them: it needs `checks: read`), so the label cannot be shown to be newer than the commit.\n\n",
	}, {
		// GitHub's times are whole seconds: which came first cannot be told.
		name: "pushed in the same second as the label",
		acc:  github.Acceptance{Labeler: "octocat", LabeledAt: labeled, HeadSHA: laterSHA, PushedAt: labeled},
		want: "> [!WARNING]\n> @octocat's `evalgate/accept` label was applied in the same second as commit `0b1d2c3` reached GitHub (2026-11-27 10:05:00 UTC), " +
			"so the label cannot be shown to be newer than the commit: remove and re-apply the `evalgate/accept` label to accept it.\n\n",
	}, {
		name: "accepted: no notice here",
		acc:  github.Acceptance{Labeler: "octocat", LabeledAt: labeled, HeadSHA: laterSHA, PushedAt: labeled.Add(-time.Second)},
		want: "",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := CheckInput{Acceptance: tt.acc, AcceptLabel: "evalgate/accept"}
			if got := notices(Event{}, in, &Outcome{Verdict: gate.Fail, Blocks: true}); got != tt.want {
				t.Errorf("notices:\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
	in := CheckInput{Acceptance: github.Acceptance{Labeler: "x*y_z", LabeledAt: labeled, HeadSHA: laterSHA, PushedAt: labeled.Add(time.Minute)}, AcceptLabel: "a`b"}
	got := notices(Event{}, in, &Outcome{Verdict: gate.Fail, Blocks: true})
	if !strings.Contains(got, `@x\*y\_z accepted`) || strings.Contains(got, "a`b") {
		t.Errorf("untrusted login or label not escaped:\n%s", got)
	}
}
