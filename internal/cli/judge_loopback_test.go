package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// runWithEnv runs evalgate in-process with env as its whole environment and returns
// the exit code, stdout and stderr.
func runWithEnv(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var so, se bytes.Buffer
	c := &cli.CLI{Stdout: &so, Stderr: &se, Getenv: func(k string) string { return env[k] },
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }, GitSHA: func() string { return "abc" }}
	code := c.Main(append([]string{"evalgate"}, args...))
	return code, so.String(), se.String()
}

// releaseReadinessWithModel copies the release-readiness example (and its baseline, at
// the same relative place) into a temporary directory and follows the config's own
// comment: set judges.default.model to a pinned model and drop `replay`. It returns the
// copied config's path.
func releaseReadinessWithModel(t *testing.T, model string) string {
	t.Helper()
	root := t.TempDir()
	dir := copyDir(t, filepath.Join("..", "..", "examples", "release-readiness"), filepath.Join(root, "examples", "release-readiness"))
	if err := os.MkdirAll(filepath.Join(root, "baselines"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "baselines", "release-readiness.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "baselines", "release-readiness.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "evalgate.yaml")
	text, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	replaced, dropped := false, false
	for _, line := range strings.Split(string(text), "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trim, "model: scripted-judge"):
			line = "    model: " + model
			replaced = true
		case strings.HasPrefix(trim, "replay: true"):
			dropped = true
			continue
		}
		out = append(out, line)
	}
	if !replaced || !dropped {
		t.Fatalf("the example's config no longer has the lines its comment says to change (model %v, replay %v)", replaced, dropped)
	}
	if err := os.WriteFile(cfg, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The release-readiness example, switched to a real model exactly as its comment says,
// against an OpenAI-compatible server on loopback: check runs (exit 0 or 1, never 2),
// the rubric tests hold (they give their judge verdicts), the report says the judge
// changed since the baseline, and the model is asked, the second time not at all
// (every verdict cached) with one progress line.
func TestReleaseReadinessWithALoopbackJudge(t *testing.T) {
	srv := chattest.New(t, "/v1", func(call int, req chattest.Request) chattest.Reply {
		return chattest.Reply{Content: `{"accuracy_score": 2, "faithfulness_score": 1, "rationale": "grounded in part"}`,
			PromptTokens: 100, CompletionTokens: 10}
	})
	cfg := releaseReadinessWithModel(t, "gpt-4o-2024-08-06")
	env := map[string]string{"OPENAI_BASE_URL": srv.BaseURL(), "OPENAI_API_KEY": "test-key"}
	code, stdout, stderr := runWithEnv(t, env, "check", "--config", cfg)
	if code != cli.ExitPass && code != cli.ExitGateFailed {
		t.Fatalf("exit %d; want 0 or 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if srv.Calls() == 0 {
		t.Error("the loopback judge was never called")
	}
	if strings.Contains(stderr, "rubric test") {
		t.Errorf("the example's rubric tests give their judge verdicts; none should be skipped:\n%s", stderr)
	}
	if !strings.Contains(stdout, "gpt-4o-2024-08-06") {
		t.Errorf("the report does not name the new judge model:\n%s", stdout)
	}
	// The shipped baseline records the scripted judge, so the switch is caught and said
	// at the top: the baseline's outputs were re-judged by the new model.
	if !strings.Contains(stdout, `changed judge: judge "default": model scripted-judge → gpt-4o-2024-08-06`) {
		t.Errorf("the report does not say the judge changed since the baseline:\n%s", stdout)
	}

	// Run again: every verdict is cached now, and the judge's progress is one line.
	calls := srv.Calls()
	code, _, stderr = runWithEnv(t, env, "check", "--config", cfg)
	if code != cli.ExitPass && code != cli.ExitGateFailed {
		t.Fatalf("second run: exit %d\n%s", code, stderr)
	}
	if srv.Calls() != calls {
		t.Errorf("second run made %d call(s); every verdict was cached", srv.Calls()-calls)
	}
	var judgeLines []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "judge") {
			judgeLines = append(judgeLines, l)
		}
	}
	if len(judgeLines) != 1 {
		t.Errorf("judge progress with every answer cached: %d line(s); want 1:\n%s", len(judgeLines), strings.Join(judgeLines, "\n"))
	}
}

// The council rubric's panel configuration validates offline: its rubric tests give
// every reviewer's verdict, and their hand-computed scores hold.
func TestCouncilPanelRubricTests(t *testing.T) {
	code, stdout, stderr := runWithEnv(t, nil, "validate", "--config", filepath.Join("..", "..", "examples", "council-rubric", "panel.yaml"))
	if code != cli.ExitPass || !strings.Contains(stdout, "4 rubric test(s) pass") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}
