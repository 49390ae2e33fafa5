package ghaction

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
	"github.com/google/go-cmp/cmp"
)

// Files of the workspace every run sees: the pull request's head. The base commit (the
// fake API) holds other versions of the config and the baseline.
var (
	headFiles = map[string]string{
		"evalgate.yaml":        "suite: tutor\nregression: {max_drop: 0.50}\n", // a PR loosening its gate
		"baselines/tutor.json": `{"mean":0.10}`,
		"runs/run1.jsonl":      `{"id":"t-01","output":"hola"}`,
		"runs/run2.jsonl":      `{"id":"t-01","output":"hola"}`,
		"suite.yaml":           "- id: t-01\n",
	}
	baseFiles = map[string]string{
		"evalgate.yaml":        "suite: tutor\nregression: {max_drop: 0.02}\n",
		"baselines/tutor.json": `{"mean":0.91}`,
	}
)

// actionEnv is the environment of one action run: a workspace, the runner's files and
// the GITHUB_* and INPUT_* variables.
type actionEnv struct {
	vars               map[string]string
	workspace, outputs string
	summary            string
	stdout             strings.Builder
}

func newActionEnv(t *testing.T, apiURL, eventName, eventFile string, editEvent func(map[string]any), inputs map[string]string) *actionEnv {
	t.Helper()
	dir := t.TempDir()
	e := &actionEnv{workspace: filepath.Join(dir, "workspace"), outputs: filepath.Join(dir, "output"), summary: filepath.Join(dir, "summary.md")}
	for name, content := range headFiles {
		writeFile(t, filepath.Join(e.workspace, name), content)
	}
	payload := readPayload(t, eventFile)
	if editEvent != nil {
		var m map[string]any
		if err := json.Unmarshal(payload, &m); err != nil {
			t.Fatal(err)
		}
		editEvent(m)
		var err error
		if payload, err = json.Marshal(m); err != nil {
			t.Fatal(err)
		}
	}
	eventPath := filepath.Join(dir, "event.json")
	writeFile(t, eventPath, string(payload))
	writeFile(t, e.outputs, "")
	writeFile(t, e.summary, "")
	e.vars = map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_API_URL":      apiURL,
		"GITHUB_EVENT_NAME":   eventName,
		"GITHUB_EVENT_PATH":   eventPath,
		"GITHUB_OUTPUT":       e.outputs,
		"GITHUB_REPOSITORY":   owner + "/" + repo,
		"GITHUB_SHA":          "4f6a5e3d0000000000000000000000000000merge", // the merge commit: never the check's target
		"GITHUB_STEP_SUMMARY": e.summary,
		"GITHUB_WORKSPACE":    e.workspace,
		"RUNNER_TEMP":         dir,
		"INPUT_GITHUB-TOKEN":  "ghs_secret",
		"INPUT_RESULTS":       "runs/*.jsonl",
		"INPUT_BASELINE":      "baselines/tutor.json",
		"INPUT_CHECK-NAME":    "evalgate: tutor",
	}
	for k, v := range inputs {
		e.vars["INPUT_"+strings.ToUpper(k)] = v
	}
	return e
}

func (e *actionEnv) run(check CheckFunc, baseline BaselineFunc) int {
	env := Env{Getenv: func(k string) string { return e.vars[k] }, Stdout: &e.stdout}
	return Run(context.Background(), env, check, baseline)
}

// outputs parses GITHUB_OUTPUT.
func (e *actionEnv) readOutputs(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(e.outputs)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	re := regexp.MustCompile(`(?s)([\w-]+)<<(\S+)\n(.*?)\n(\S+)\n`)
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		if m[2] != m[4] {
			t.Fatalf("output %s: delimiters %q and %q differ", m[1], m[2], m[4])
		}
		out[m[1]] = m[3]
	}
	return out
}

func (e *actionEnv) readSummary(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(e.summary)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// seen is what the fake check callback saw, read while Run's temporary files exist.
type seen struct {
	in                   CheckInput
	baseConfig, baseline string
}

// fakeCheck returns a callback that records its input and returns outcome(in).
func fakeCheck(s *seen, outcome func(CheckInput) (*Outcome, error)) CheckFunc {
	return func(ctx context.Context, in CheckInput) (*Outcome, error) {
		s.in = in
		if in.BaseConfig != "" {
			b, _ := in.ReadBase(ctx, in.BaseConfig)
			s.baseConfig = string(b)
		}
		if in.BaselinePath != "" {
			b, _ := os.ReadFile(in.BaselinePath)
			s.baseline = string(b)
		}
		return outcome(in)
	}
}

// failing is the outcome of a run whose score dropped 10 points: the regression gate
// (hard) fails, unless a maintainer accepted it.
func failing(in CheckInput) (*Outcome, error) {
	out := &Outcome{
		Suite: "tutor", Verdict: gate.Fail, Blocks: true, Score: 0.81, BaselineScore: 0.91, Delta: -0.10, HasBaseline: true,
		Grade: "C", Changed: true, ReportPath: "evalgate-report.md",
		CommentMarkdown: "### ❌ evalgate: score dropped 10.0 pts\n\n| dimension | baseline | PR |\n|---|---|---|\n| accuracy | 0.91 | 0.81 |\n",
		CheckTitle:      "❌ score dropped 10.0 pts (max 2.0)",
		Annotations: []github.Annotation{
			{Path: "suite.yaml", StartLine: 1, Level: github.LevelFailure, Title: "t-01 newly fails", Message: "score 0.40, baseline 0.95"},
		},
	}
	if in.Acceptance.By() != "" {
		out.Verdict, out.Blocks = gate.Accepted, false
	}
	return out, nil
}

func TestRunPullRequest(t *testing.T) {
	t.Parallel()
	fork := func(m map[string]any) {
		m["pull_request"].(map[string]any)["head"].(map[string]any)["repo"].(map[string]any)["full_name"] = "someone/Hello-World"
	}
	tests := []struct {
		name     string
		event    string
		edit     func(map[string]any)
		inputs   map[string]string
		api      fakeOptions
		check    func(CheckInput) (*Outcome, error)
		wantExit int
		// wantOutputs are compared whole when set.
		wantOutputs map[string]string
		// wantConclusion is the check run's; "" means no check run is written.
		wantConclusion string
		wantCommentHas []string // "" entries skipped; nil means no comment is written
		wantSummaryHas []string
		wantStdoutHas  []string
		wantWrites     []string
	}{{
		name:  "regression fails the pull request",
		event: "pull_request.opened.json",
		api:   fakeOptions{changed: []string{"baselines/tutor.json", "evalgate.yaml", "src/main.go"}},
		check: failing, wantExit: ExitGateFailed,
		wantOutputs: map[string]string{
			"score": "0.8100", "baseline-score": "0.9100", "delta": "-0.1000", "verdict": "fail", "grade": "C",
			"report-path": "evalgate-report.md", "html-path": "", "comment-url": "https://github.com/Codertocat/Hello-World/pull/2#issuecomment-1",
			"failed-channels": "",
		},
		wantConclusion: "failure",
		wantCommentHas: []string{
			"<!-- evalgate:suite=tutor -->\n> [!WARNING]\n> This pull request changes what the gate is read from: `baselines/tutor.json`, `evalgate.yaml`.",
			"base commit `f95f852`", "### ❌ evalgate: score dropped 10.0 pts",
		},
		wantSummaryHas: []string{"> [!WARNING]", "| accuracy | 0.91 | 0.81 |"},
		wantStdoutHas:  []string{"::add-mask::ghs_secret", "::❌ score dropped 10.0 pts (max 2.0)"},
		wantWrites:     []string{"POST /check-runs", "PATCH /check-runs/7", "POST /issues/2/comments"},
	}, {
		name:  "a maintainer's label accepts the regression: neutral, and the comment says who",
		event: "pull_request.labeled.json",
		edit:  appliedBy("evalgate/accept", "octocat"),
		api:   fakeOptions{labels: []string{"evalgate/accept"}, labeledBy: "octocat", writers: []string{"octocat"}},
		check: failing, wantExit: ExitPass,
		wantConclusion: "neutral",
		wantCommentHas: []string{"<!-- evalgate:suite=tutor -->\n> [!NOTE]\n> Regression accepted by @octocat with the `evalgate/accept` label"},
		wantStdoutHas:  []string{"::notice"},
		wantWrites:     []string{"POST /check-runs", "PATCH /check-runs/7", "POST /issues/2/comments"},
	}, {
		name:  "the label applied by a reader accepts nothing",
		event: "pull_request.labeled.json",
		edit:  appliedBy("evalgate/accept", "drive-by"),
		api:   fakeOptions{labels: []string{"evalgate/accept"}, labeledBy: "drive-by", writers: []string{"octocat"}},
		check: failing, wantExit: ExitGateFailed,
		wantConclusion: "failure",
		wantCommentHas: []string{"### ❌"},
		wantWrites:     []string{"POST /check-runs", "PATCH /check-runs/7", "POST /issues/2/comments"},
	}, {
		name:   "fail-on never: the step passes, the check still fails",
		event:  "pull_request.opened.json",
		inputs: map[string]string{"fail-on": "never"},
		check:  failing, wantExit: ExitPass,
		wantConclusion: "failure",
		wantCommentHas: []string{"### ❌"},
		wantWrites:     []string{"POST /check-runs", "PATCH /check-runs/7", "POST /issues/2/comments"},
	}, {
		name:  "fork: job summary and log annotations only, and the step still fails",
		event: "pull_request.opened.json",
		edit:  fork,
		check: failing, wantExit: ExitGateFailed,
		wantSummaryHas: []string{fallbackFork, "### ❌ evalgate"},
		wantStdoutHas:  []string{"::error ", "file=suite.yaml", "::score 0.40, baseline 0.95"},
	}, {
		name:  "403 on writes: the same fallback",
		event: "pull_request.opened.json",
		api:   fakeOptions{forbidden: true},
		check: failing, wantExit: ExitGateFailed,
		wantSummaryHas: []string{"failed-channels: `check-run,comment`", "> - the check run: " + readOnlyReason[ChannelCheckRun], "> - the pull-request comment: " + readOnlyReason[ChannelComment]},
		wantStdoutHas:  []string{"file=suite.yaml"},
		// Each channel is tried on its own: the refused check run does not skip the comment.
		wantWrites: []string{"POST /check-runs", "POST /issues/2/comments"},
	}, {
		name:  "the check cannot run: exit 2, and the check run does not stay in progress",
		event: "pull_request.opened.json",
		check: func(CheckInput) (*Outcome, error) {
			return nil, errors.New(`runs/run1.jsonl:1: item "t-99" is not in the suite`)
		},
		wantExit:       ExitBadInput,
		wantConclusion: "failure",
		wantStdoutHas:  []string{`::error::evalgate: runs/run1.jsonl:1: item "t-99" is not in the suite`},
		wantWrites:     []string{"POST /check-runs", "PATCH /check-runs/7"},
	}, {
		name:          "bad inputs: exit 2 before any request",
		event:         "pull_request.opened.json",
		inputs:        map[string]string{"fail-on": "sometimes", "results": "nothing/*.jsonl"},
		check:         failing,
		wantExit:      ExitBadInput,
		wantStdoutHas: []string{`::error::evalgate: input "fail-on": "sometimes" is not one of hard, soft, never`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.api.baseFiles == nil {
				tt.api.baseFiles = baseFiles
			}
			api := newFakeAPI(t, tt.api)
			env := newActionEnv(t, api.srv.URL, "pull_request", tt.event, tt.edit, tt.inputs)
			var s seen
			got := env.run(fakeCheck(&s, tt.check), nil)
			if got != tt.wantExit {
				t.Errorf("exit code %d, want %d; log:\n%s", got, tt.wantExit, env.stdout.String())
			}
			if tt.wantOutputs != nil {
				if diff := cmp.Diff(tt.wantOutputs, env.readOutputs(t)); diff != "" {
					t.Errorf("outputs (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff(tt.wantWrites, api.writes()); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			// Every check run goes to the pull request's head, never the merge commit.
			for _, c := range api.creates {
				if c.HeadSHA != headSHA {
					t.Errorf("check run on %s, want the head sha %s", c.HeadSHA, headSHA)
				}
			}
			conclusion := ""
			if n := len(api.updates); n > 0 {
				conclusion = api.updates[n-1].GetConclusion()
			}
			if conclusion != tt.wantConclusion {
				t.Errorf("check conclusion %q, want %q", conclusion, tt.wantConclusion)
			}
			var comment string
			if len(api.comments) > 0 {
				comment = api.comments[0].GetBody()
			}
			if (comment != "") != (tt.wantCommentHas != nil) {
				t.Errorf("comment %q, want one: %v", comment, tt.wantCommentHas != nil)
			}
			for _, want := range tt.wantCommentHas {
				if !strings.Contains(comment, want) {
					t.Errorf("comment lacks %q:\n%s", want, comment)
				}
			}
			summary := env.readSummary(t)
			for _, want := range tt.wantSummaryHas {
				if !strings.Contains(summary, want) {
					t.Errorf("summary lacks %q:\n%s", want, summary)
				}
			}
			for _, want := range tt.wantStdoutHas {
				if !strings.Contains(env.stdout.String(), want) {
					t.Errorf("log lacks %q:\n%s", want, env.stdout.String())
				}
			}
			if strings.Contains(summary+comment, "ghs_secret") || !strings.Contains(env.stdout.String(), "::add-mask::ghs_secret") {
				t.Error("the token is not masked, or leaked into the summary or the comment")
			}
			if tt.wantExit == ExitBadInput && tt.wantWrites == nil && len(api.requests()) > 0 {
				t.Errorf("requests after bad input: %q", api.requests())
			}
		})
	}
}

// The gate a pull request is judged by comes from its base commit.
func TestRunReadsTheGateFromTheBase(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles, changed: []string{"evalgate.yaml", "baselines/new.json", "README.md"}})
	env := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.opened.json", nil, nil)
	var s seen
	if code := env.run(fakeCheck(&s, failing), nil); code != ExitGateFailed {
		t.Fatalf("exit code %d; log:\n%s", code, env.stdout.String())
	}
	if s.baseConfig != baseFiles["evalgate.yaml"] || s.baseline != baseFiles["baselines/tutor.json"] {
		t.Errorf("callback read config %q and baseline %q; want the base commit's", s.baseConfig, s.baseline)
	}
	ws := env.workspace
	want := CheckInput{
		ConfigPath:       filepath.Join(ws, "evalgate.yaml"),
		BaseConfig:       "evalgate.yaml",
		HeadConfig:       "evalgate.yaml",
		Results:          []string{filepath.Join(ws, "runs/run1.jsonl"), filepath.Join(ws, "runs/run2.jsonl")},
		BaselineSource:   "baselines/tutor.json@f95f852",
		BaseSHA:          baseSHA,
		ProtectedChanged: []string{"baselines/new.json", "evalgate.yaml"},
		Acceptance:       github.Acceptance{Label: "evalgate/accept", HeadSHA: headSHA, Trigger: &github.Trigger{Action: "opened", Sender: "Codertocat"}},
		AcceptLabel:      "evalgate/accept",
		ReportDir:        ws,
		Settle:           true, // the settle input's default, auto
	}
	got := s.in
	got.BaselinePath, got.ReadBase, got.ListBase, got.Root = "", nil, nil, ""
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CheckInput (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(s.in.BaselinePath); !os.IsNotExist(err) {
		t.Errorf("temporary baseline %s left behind", s.in.BaselinePath)
	}
	wantReads := []string{
		"GET /contents/evalgate.yaml", "GET /contents/baselines/tutor.json",
		"GET /contents/baselines/tutor.history.jsonl", // the history beside it: its run-level noise
		"GET /pulls/2/files",
		"GET /pulls/2",
		"GET /contents/evalgate.yaml", // the callback reads the base config
	}
	var reads []string
	for _, c := range api.requests() {
		if strings.HasPrefix(c, "GET /contents") || strings.HasPrefix(c, "GET /pulls") {
			reads = append(reads, c)
		}
	}
	if diff := cmp.Diff(wantReads, reads); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
}

func TestRunReleaseRefreshesTheBaseline(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles})
	env := newActionEnv(t, api.srv.URL, "release", "release.published.json", nil, map[string]string{
		"mode": "baseline", "refresh-token": "pat_refresh",
	})
	const newBaseline = `{"mean":0.93}`
	var got BaselineInput
	baseline := func(ctx context.Context, in BaselineInput) (*BaselineOutcome, error) {
		got = in
		writeFile(t, in.OutPath, newBaseline)
		return &BaselineOutcome{Path: in.OutPath, Score: 0.93, Summary: "### evalgate baseline\nmean 0.93 over 2 runs\n"}, nil
	}
	if code := env.run(nil, baseline); code != ExitPass {
		t.Fatalf("exit code %d; log:\n%s", code, env.stdout.String())
	}
	if got.Tag != "0.0.1" || got.OutPath != filepath.Join(env.workspace, "baselines/tutor.json") || len(got.Results) != 2 {
		t.Errorf("BaselineInput = %+v", got)
	}
	wantOutputs := map[string]string{
		"score": "0.9300", "verdict": "baseline", "report-path": "baselines/tutor.json",
		"refresh-pr-url": "https://github.com/Codertocat/Hello-World/pull/9", "failed-channels": "",
	}
	if diff := cmp.Diff(wantOutputs, env.readOutputs(t)); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	wantWrites := []string{"POST /git/refs", "PUT /contents/baselines/tutor.json", "POST /pulls"}
	if diff := cmp.Diff(wantWrites, api.writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if api.puts["baselines/tutor.json"] != newBaseline {
		t.Errorf("committed %q, want the new baseline", api.puts["baselines/tutor.json"])
	}
	if len(api.prs) != 1 || api.prs[0].GetBase() != "master" || !strings.Contains(api.prs[0].GetBody(), "refresh-token") {
		t.Errorf("pull requests = %+v", api.prs)
	}
	for call, auth := range api.auth {
		if auth != "Bearer pat_refresh" {
			t.Errorf("%s authenticated with %q, want the refresh token", call, auth)
		}
	}
	if s := env.readSummary(t); !strings.Contains(s, "Opened https://github.com/Codertocat/Hello-World/pull/9") || !strings.Contains(s, "mean 0.93") {
		t.Errorf("summary:\n%s", s)
	}
	if !strings.Contains(env.stdout.String(), "::add-mask::pat_refresh") {
		t.Error("the refresh token was not masked")
	}
}

// A push has no pull request: the check run goes to GITHUB_SHA, there is no comment,
// and the baseline is the workspace's.
func TestRunPush(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, fakeOptions{})
	env := newActionEnv(t, api.srv.URL, "push", "release.published.json", func(m map[string]any) {
		delete(m, "release")
	}, nil)
	var s seen
	pass := func(CheckInput) (*Outcome, error) {
		return &Outcome{Verdict: gate.Pass, Score: 0.97, CommentMarkdown: "### ✅ evalgate"}, nil
	}
	if code := env.run(fakeCheck(&s, pass), nil); code != ExitPass {
		t.Fatalf("exit code %d; log:\n%s", code, env.stdout.String())
	}
	if diff := cmp.Diff([]string{"POST /check-runs", "PATCH /check-runs/7"}, api.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if len(api.creates) != 1 || api.creates[0].HeadSHA != env.vars["GITHUB_SHA"] {
		t.Errorf("check runs = %+v, want one on GITHUB_SHA", api.creates)
	}
	if want := filepath.Join(env.workspace, "baselines/tutor.json"); s.in.BaselinePath != want || s.baseline != headFiles["baselines/tutor.json"] {
		t.Errorf("baseline %q (%q), want the workspace's %q", s.in.BaselinePath, s.baseline, want)
	}
	if s.in.ReadBase != nil || s.in.BaseConfig != "" {
		t.Error("a push has no base commit to read from")
	}
}

func TestRunWithoutTheModesCallback(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, fakeOptions{})
	env := newActionEnv(t, api.srv.URL, "release", "release.published.json", nil, map[string]string{"mode": "baseline"})
	if code := env.run(fakeCheck(&seen{}, failing), nil); code != ExitBadInput {
		t.Errorf("exit code %d, want %d", code, ExitBadInput)
	}
	if want := `::error::evalgate: input "mode": "baseline" is not available in this build`; !strings.Contains(env.stdout.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, env.stdout.String())
	}
}
