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

// appliedBy edits pull_request.labeled.json (a real payload: Codertocat applies "bug" to
// pull request 2, whose head is headSHA) into login applying label.
func appliedBy(label, login string) func(map[string]any) {
	return func(m map[string]any) {
		m["label"].(map[string]any)["name"] = label
		m["sender"].(map[string]any)["login"] = login
	}
}

// headAt edits a pull request payload's head commit to sha.
func headAt(sha string) func(map[string]any) {
	return func(m map[string]any) {
		m["pull_request"].(map[string]any)["head"].(map[string]any)["sha"] = sha
	}
}

// prRun is one run of the action on a pull request event, judged by the fake.
type prRun struct {
	event, file string
	edit        []func(map[string]any)
}

// run runs the action for r against api with the failing check; it returns the exit
// code, the last check run's conclusion and head sha, the comment and the log.
func (r prRun) run(t *testing.T, api *fakeAPI) (code int, conclusion, sha, comment, log string) {
	t.Helper()
	edit := func(m map[string]any) {
		for _, e := range r.edit {
			e(m)
		}
	}
	env := newActionEnv(t, api.srv.URL, r.event, r.file, edit, nil)
	code = env.run(fakeCheck(&seen{}, failing), nil)
	return code, api.updates[len(api.updates)-1].GetConclusion(), api.creates[len(api.creates)-1].HeadSHA,
		api.comments[len(api.comments)-1].GetBody(), env.stdout.String()
}

// notBoundWhy is the notice of a run of commit sha the label's application did not
// start (label applied 10:05 by octocat), started by what.
func notBoundWhy(sha, what string) string {
	return "@octocat's `evalgate/accept` label (applied 2026-11-27 10:05:00 UTC) accepts only the commit it was applied to, in the run that applying it started; " +
		"this run, of commit `" + short(sha) + "`, was started by " + what + ": remove and re-apply the `evalgate/accept` label to accept this commit (the workflow must run on `labeled`)."
}

// The accept label binds to the commit it was applied to: the run its application
// started (payload action labeled, this label, head.sha that commit) accepts that
// commit, and no other run does, whatever the times of the commits' check suites. The
// holes this closes: (1) a pull request at A pushes B (its first check suite 09:50),
// force-pushes back to A, octocat labels A (10:05), then B is pushed again; (2) B was
// tested at 09:30 through another pull request (a fork's) and is pushed here after the
// label. Both times precede the label, which the time rule took as "B reached GitHub
// before the label, so the maintainer saw it".
func TestRunAcceptanceBindsToTheLabeledCommit(t *testing.T) {
	t.Parallel()
	const badSHA = "bad0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
	fork := func(m map[string]any) {
		m["pull_request"].(map[string]any)["head"].(map[string]any)["repo"].(map[string]any)["full_name"] = "forker/Hello-World"
	}
	labeledRun := prRun{"pull_request", "pull_request.labeled.json", []func(map[string]any){appliedBy("evalgate/accept", "octocat")}}
	tests := []struct {
		name    string
		runs    []prRun // in order, on one pull request; the last one is judged
		sha     string  // the last run's head commit
		want    string  // the last check run's conclusion: neutral is accepted
		wantWhy string  // the notice that says why the label accepts nothing; "" for none
	}{{
		name: "the run applying the label accepts the commit it was applied to",
		runs: []prRun{labeledRun}, sha: headSHA, want: "neutral",
	}, {
		// The label is matched as GitHub matches label names.
		name: "the label's application in other case",
		runs: []prRun{{"pull_request", "pull_request.labeled.json", []func(map[string]any){appliedBy("EvalGate/Accept", "OctoCat")}}},
		sha:  headSHA, want: "neutral",
	}, {
		name: "hole 1: a commit pushed before the label, gone, and pushed again after it",
		runs: []prRun{labeledRun, {"pull_request", "pull_request.synchronize.json", []func(map[string]any){headAt(badSHA)}}},
		sha:  badSHA, want: "failure", wantWhy: notBoundWhy(badSHA, "`synchronize`"),
	}, {
		name: "hole 2: a commit tested before the label through a fork's pull request, under pull_request_target",
		runs: []prRun{{"pull_request_target", "pull_request.labeled.json", []func(map[string]any){appliedBy("evalgate/accept", "octocat")}},
			{"pull_request_target", "pull_request.synchronize.json", []func(map[string]any){headAt(badSHA), fork}}},
		sha: badSHA, want: "failure", wantWhy: notBoundWhy(badSHA, "`synchronize`"),
	}, {
		// A re-run gets its first run's payload: it still accepts the labeled commit,
		// even after the pull request moved on.
		name: "a re-run of the labeled run",
		runs: []prRun{labeledRun, {"pull_request", "pull_request.synchronize.json", []func(map[string]any){headAt(badSHA)}}, labeledRun},
		sha:  headSHA, want: "neutral",
	}, {
		// The label on the very commit the labeled run accepted, but this run was
		// started by the push: the time rule accepted it (pushed 10:00, label 10:05).
		name: "a synchronize run with the label on",
		runs: []prRun{{"pull_request", "pull_request.synchronize.json", nil}},
		sha:  headSHA, want: "failure", wantWhy: notBoundWhy(headSHA, "`synchronize`"),
	}, {
		name: "an opened run with the label on",
		runs: []prRun{{"pull_request", "pull_request.opened.json", nil}},
		sha:  headSHA, want: "failure", wantWhy: notBoundWhy(headSHA, "`opened`"),
	}, {
		name: "a run started by applying another label",
		runs: []prRun{{"pull_request", "pull_request.labeled.json", []func(map[string]any){appliedBy("bug", "octocat")}}},
		sha:  headSHA, want: "failure", wantWhy: notBoundWhy(headSHA, "applying the `bug` label"),
	}, {
		name: "a run started by removing another label",
		runs: []prRun{{"pull_request", "pull_request.unlabeled.json", nil}},
		sha:  headSHA, want: "failure", wantWhy: notBoundWhy(headSHA, "removing the `bug` label"),
	}, {
		// The payload's sender is not who the events say applied the label last: this
		// run was started by an application since superseded.
		name: "the labeled run of an earlier application, by someone else",
		runs: []prRun{{"pull_request", "pull_request.labeled.json", []func(map[string]any){appliedBy("evalgate/accept", "hubot")}}},
		sha:  headSHA, want: "failure", wantWhy: notBoundWhy(headSHA, "an earlier application of the label, by @hubot"),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles,
				labels: []string{"evalgate/accept"}, labeledBy: "octocat", writers: []string{"octocat", "hubot"},
				// The check suites' times the time rule compared with the label (10:05).
				pushed: map[string]time.Time{headSHA: fakePushed, badSHA: fakePushed.Add(-10 * time.Minute)}})
			var code int
			var conclusion, sha, comment, log string
			for _, r := range tt.runs {
				code, conclusion, sha, comment, log = r.run(t, api)
			}
			if sha != tt.sha {
				t.Errorf("check run on %s, want %s", sha, tt.sha)
			}
			wantCode := map[string]int{"neutral": ExitPass, "failure": ExitGateFailed}[tt.want]
			if code != wantCode || conclusion != tt.want {
				t.Fatalf("exit %d, check %q; want %d, %q; log:\n%s", code, conclusion, wantCode, tt.want, log)
			}
			if tt.want == "neutral" && !strings.Contains(comment, "> Regression accepted by @") {
				t.Errorf("the comment does not say who accepted:\n%s", comment)
			}
			if tt.wantWhy == "" {
				return
			}
			if want := marker("tutor") + "\n> [!WARNING]\n> " + tt.wantWhy + "\n"; !strings.HasPrefix(comment, want) {
				t.Errorf("the comment does not start by saying why; want prefix\n%s\ngot:\n%s", want, comment)
			}
			if strings.Contains(comment, "Regression accepted") {
				t.Errorf("the comment says the regression is accepted:\n%s", comment)
			}
			if s := api.updates[len(api.updates)-1].GetOutput().GetSummary(); !strings.HasPrefix(s, "> [!WARNING]\n> "+tt.wantWhy) {
				t.Errorf("check run summary does not start with why:\n%s", s)
			}
			if !strings.Contains(log, "::warning::evalgate: "+tt.wantWhy) {
				t.Errorf("log lacks why:\n%s", log)
			}
		})
	}
}

// The labeled run accepts nothing when its sender may not write: the label's last
// application is theirs, and nothing is said (as for any reader's label).
func TestRunAcceptanceNeedsAWriter(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles, labels: []string{"evalgate/accept"}, labeledBy: "drive-by", writers: []string{"octocat"}})
	code, conclusion, _, comment, log := prRun{"pull_request", "pull_request.labeled.json", []func(map[string]any){appliedBy("evalgate/accept", "drive-by")}}.run(t, api)
	if code != ExitGateFailed || conclusion != "failure" {
		t.Fatalf("exit %d, check %q; want %d, failure; log:\n%s", code, conclusion, ExitGateFailed, log)
	}
	if strings.Contains(comment, "accept") {
		t.Errorf("the comment speaks of acceptance:\n%s", comment)
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
			"commit `0b1d2c3` was pushed after it (2026-11-27 10:10:00 UTC): remove and re-apply the `evalgate/accept` label, then re-run this workflow, to accept this one.\n\n",
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
			"so the label cannot be shown to be newer than the commit: remove and re-apply the `evalgate/accept` label, then re-run this workflow, to accept it.\n\n",
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
	// A pull request event's run: the payload's label, action and sender are escaped too.
	for _, trig := range []github.Trigger{{Action: "labeled", Label: "a`b", Sender: "p*q_r"}, {Action: "labeled", Label: "c`d"}, {Action: "unlabeled", Label: "c`d"}, {Action: "syn`c"}} {
		acc := github.Acceptance{Label: "a`b", Labeler: "x*y_z", LabeledAt: labeled, HeadSHA: laterSHA, Trigger: &trig}
		got := notices(Event{}, CheckInput{Acceptance: acc, AcceptLabel: "a`b"}, &Outcome{Verdict: gate.Fail, Blocks: true})
		if !strings.HasPrefix(got, "> [!WARNING]\n> @x\\*y\\_z's `a'b` label (applied 2026-11-27 10:05:00 UTC) accepts only the commit it was applied to") ||
			strings.Contains(got, "a`b") || strings.Contains(got, "c`d") || strings.Contains(got, "syn`c") || strings.Contains(got, "x*y") || strings.Contains(got, "p*q") {
			t.Errorf("%+v: untrusted login, label or action not escaped:\n%s", trig, got)
		}
		if trig.Sender != "" && !strings.Contains(got, `by @p\*q\_r:`) {
			t.Errorf("%+v: the notice does not name whose earlier application started the run:\n%s", trig, got)
		}
	}
}

// A path the pull request changes is its own to name: in the notice's code span a bidi
// override ("Trojan Source") or a control character shows as such instead of
// reordering or hiding what the maintainer reads.
func TestNoticeShowsHiddenCharactersInPaths(t *testing.T) {
	t.Parallel()
	in := CheckInput{BaseConfig: "evalgate.yaml", ProtectedChanged: []string{"baselines/x\u202enosj.tset\x1b[2K.json"}}
	got := notices(Event{BaseSHA: baseSHA}, in, &Outcome{Verdict: gate.Pass})
	if !strings.Contains(got, "`baselines/xU+202Enosj.tset\\x1b[2K.json`") {
		t.Errorf("notice:\n%s\nwant the path with U+202E and \\x1b shown", got)
	}
}
