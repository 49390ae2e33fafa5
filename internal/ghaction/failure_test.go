package ghaction

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
	"github.com/google/go-cmp/cmp"
)

// Any failure after the inputs are read leaves a job summary that says what went wrong
// and what to do, and the outputs that can be set.
func TestRunStopsWithASummary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		inputs map[string]string
		vars   map[string]string
		check  func(CheckInput) (*Outcome, error)
		want   []string
		// wantConclusion: the check run started is concluded, never left in progress.
		wantConclusion string
	}{{
		name:   "bad inputs",
		inputs: map[string]string{"fail-on": "sometimes", "publish-budget": "soon"},
		check:  failing,
		want: []string{`input "fail-on": "sometimes" is not one of hard, soft, never`, `input "publish-budget"`,
			"fix the inputs named above in the workflow step's `with:` block"},
	}, {
		name:  "an unreadable event payload",
		vars:  map[string]string{"GITHUB_EVENT_PATH": "/nonexistent/event.json"},
		check: failing,
		want:  []string{"reading the event payload", "run the action from a workflow on `pull_request`"},
	}, {
		name: "a malformed config at the base commit",
		check: func(CheckInput) (*Outcome, error) {
			return nil, &BaseError{Path: "evalgate.yaml", Err: errors.New(`evalgate.yaml:1: invalid JSON: unexpected "}"`)}
		},
		want: []string{"evalgate.yaml as of the base commit: evalgate.yaml:1: invalid JSON", "`evalgate.yaml` is broken on the base branch",
			"fix `evalgate.yaml` on the base branch first"},
		wantConclusion: "failure",
	}, {
		name: "bad results",
		check: func(CheckInput) (*Outcome, error) {
			return nil, errors.New(`runs/run1.jsonl:1: item "t-99" is not in the suite`)
		},
		want:           []string{`runs/run1.jsonl:1: item "t-99" is not in the suite`, "run `evalgate check` locally with the same config and results files"},
		wantConclusion: "failure",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles})
			env := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.opened.json", nil, tt.inputs)
			for k, v := range tt.vars {
				env.vars[k] = v
			}
			if code := env.run(fakeCheck(&seen{}, tt.check), nil); code != ExitBadInput {
				t.Errorf("exit code %d, want %d", code, ExitBadInput)
			}
			summary := env.readSummary(t)
			for _, want := range append([]string{"### ❌ evalgate could not judge this run", "**What went wrong:**", "**What to do:**"}, tt.want...) {
				if !strings.Contains(summary, want) {
					t.Errorf("summary lacks %q:\n%s", want, summary)
				}
			}
			if diff := cmp.Diff(map[string]string{"verdict": "error", "failed-channels": ""}, env.readOutputs(t)); diff != "" {
				t.Errorf("outputs (-want +got):\n%s", diff)
			}
			conclusion := ""
			if n := len(api.updates); n > 0 {
				conclusion = api.updates[n-1].GetConclusion()
			}
			if conclusion != tt.wantConclusion {
				t.Errorf("check conclusion %q, want %q", conclusion, tt.wantConclusion)
			}
		})
	}
}

// Outputs that cannot be written are a failed channel: the summary says so, and the
// exit code still follows the verdict.
func TestRunUnwritableOutputs(t *testing.T) {
	t.Parallel()
	pass := func(CheckInput) (*Outcome, error) {
		return &Outcome{Verdict: gate.Pass, Score: 0.97, CommentMarkdown: "### ✅ evalgate"}, nil
	}
	for _, tt := range []struct {
		check    func(CheckInput) (*Outcome, error)
		wantExit int
	}{{pass, ExitPass}, {failing, ExitGateFailed}} {
		api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles})
		env := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.opened.json", nil, nil)
		env.vars["GITHUB_OUTPUT"] = filepath.Join(t.TempDir(), "no", "such", "dir", "output")
		if code := env.run(fakeCheck(&seen{}, tt.check), nil); code != tt.wantExit {
			t.Errorf("exit code %d, want %d", code, tt.wantExit)
		}
		summary := env.readSummary(t)
		if !strings.Contains(summary, "failed-channels: `outputs`") || !strings.Contains(summary, "> - the step outputs: ") {
			t.Errorf("summary does not report the outputs:\n%s", summary)
		}
		if len(api.comments) != 1 {
			t.Errorf("%d comments, want 1: the other channels are still published", len(api.comments))
		}
	}
}

// Text taken from model outputs and files never starts a line of the log with "::" (a
// workflow command the runner would obey), whatever path it takes: an error, an
// annotation's title or message, a check title.
func TestRunLogNeverStartsACommand(t *testing.T) {
	t.Parallel()
	const evil = "x\n::set-output name=verdict::pass\r\n  ::add-mask::y\n##[error]z"
	for _, check := range []func(CheckInput) (*Outcome, error){
		func(CheckInput) (*Outcome, error) { return nil, errors.New(evil) },
		func(in CheckInput) (*Outcome, error) {
			out, _ := failing(in)
			out.CheckTitle = evil
			out.Annotations = append(out.Annotations, github.Annotation{Path: "suite.yaml", StartLine: 2, Level: github.LevelFailure, Title: evil, Message: evil})
			return out, nil
		},
	} {
		// A fork: the annotations go to the log, not to a check run.
		api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles})
		env := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.opened.json", func(m map[string]any) {
			m["pull_request"].(map[string]any)["head"].(map[string]any)["repo"].(map[string]any)["full_name"] = "someone/Hello-World"
		}, nil)
		env.run(fakeCheck(&seen{}, check), nil)
		for _, line := range strings.FieldsFunc(env.stdout.String(), func(r rune) bool { return r == '\n' || r == '\r' }) {
			trimmed := strings.TrimLeft(line, " \t")
			if strings.HasPrefix(trimmed, "##[") || strings.HasPrefix(trimmed, "::") && !strings.HasPrefix(trimmed, "::error") &&
				!strings.HasPrefix(trimmed, "::warning") && !strings.HasPrefix(trimmed, "::notice") && !strings.HasPrefix(trimmed, "::add-mask::ghs_secret") {
				t.Errorf("log line %q is a workflow command evalgate did not mean", line)
			}
		}
	}
}

// A repository that does not let Actions open pull requests: the branch is pushed, the
// summary and the log say where to open the pull request and which setting to change,
// and the step fails.
func TestRunRefreshWithoutPermission(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles, prNotPermitted: true})
	env := newActionEnv(t, api.srv.URL, "release", "release.published.json", nil, map[string]string{"mode": "baseline"})
	baseline := func(ctx context.Context, in BaselineInput) (*BaselineOutcome, error) {
		writeFile(t, in.OutPath, `{"mean":0.93}`)
		return &BaselineOutcome{Path: in.OutPath, Score: 0.93, Summary: "### evalgate baseline\n"}, nil
	}
	if code := env.run(nil, baseline); code != ExitGateFailed {
		t.Errorf("exit code %d, want %d", code, ExitGateFailed)
	}
	if diff := cmp.Diff([]string{"POST /git/refs", "PUT /contents/baselines/tutor.json", "POST /pulls"}, api.writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	const compare = "https://github.com/Codertocat/Hello-World/compare/master...evalgate/refresh/baselines/tutor?expand=1"
	const setting = "Allow GitHub Actions to create and approve pull requests"
	summary, log := env.readSummary(t), env.stdout.String()
	for _, want := range []string{"> [!CAUTION]", "pushed on the branch `evalgate/refresh/baselines/tutor`", "[open it by hand](" + compare + ")",
		"Settings → Actions → General → Workflow permissions → " + setting, "refresh-token", "### evalgate baseline"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
	for _, want := range []string{"::error::evalgate: GitHub does not let GitHub Actions open pull requests", compare, setting} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	outputs := env.readOutputs(t)
	if outputs["refresh-pr-url"] != "" || outputs["failed-channels"] != "refresh-pr" || outputs["verdict"] != "baseline" {
		t.Errorf("outputs = %v", outputs)
	}
}
