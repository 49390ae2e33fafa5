package cli_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// Settle's re-runs of a judged dimension are judged afresh: a re-run whose output is
// the same as the pull request's (a deterministic system) is not answered from the
// judge cache, so it is a draw of its own, and every later look reads that draw's
// verdict from the cache instead of asking again.
//
// The newcomer's suite, judged: 8 items whose baseline answers the fake judge scores
// 2 of 2, and a pull request that breaks one (scored 0). Checked once without settle
// (every output judged, then cached), then with --settle: the judge is asked exactly
// once per extra item-run settle reports, though every re-run output was judged
// before.
func TestSettleJudgesRerunsAfresh(t *testing.T) {
	srv := scoringJudge(t, func(_ string, truth, _ int, _ string) int { return truth })
	mustRun, pr := judgedSettleProject(t, srv)

	var first struct {
		Regression struct{ Outcome string } `json:"regression"`
	}
	if err := json.Unmarshal([]byte(mustRun(cli.ExitPass, "check", "--results", pr, "--format", "json")), &first); err != nil {
		t.Fatal(err)
	}
	if first.Regression.Outcome != "inconclusive" {
		t.Fatalf("without settle: %q; the case needs an inconclusive verdict", first.Regression.Outcome)
	}
	before := srv.Calls()

	out := mustRun(cli.ExitGateFailed, "check", "--results", pr, "--settle", "--settle-budget", "8",
		"--settle-dir", filepath.Join(filepath.Dir(pr), "settled"), "--format", "json")
	var r struct {
		Settle struct {
			Rounds   []json.RawMessage `json:"rounds"`
			ItemRuns int               `json:"item_runs"`
			Outcome  string            `json:"outcome"`
		} `json:"settle"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Settle.Rounds) == 0 || r.Settle.ItemRuns == 0 || r.Settle.Outcome != "fail" {
		t.Fatalf("settle: %d round(s), %d item-run(s), outcome %q; want a fail after at least one round", len(r.Settle.Rounds), r.Settle.ItemRuns, r.Settle.Outcome)
	}
	if got := srv.Calls() - before; got != r.Settle.ItemRuns {
		t.Errorf("settle asked the judge %d time(s) for %d re-run item-run(s); want one fresh verdict per re-run (the cache held every output already)", got, r.Settle.ItemRuns)
	}
}

// judgedSettleProject is the newcomer's suite, judged by srv: 8 items, a 3-run baseline
// whose answers the judge scores 2 of 2, and a pull request's run (pr) that breaks q3
// (scored 0). mustRun runs evalgate with the project's config and judge, and wants the
// exit code given.
func judgedSettleProject(t *testing.T, srv *chattest.Server) (mustRun func(want int, args ...string) string, pr string) {
	t.Helper()
	dir := t.TempDir()
	var suite strings.Builder
	for i := range 8 {
		fmt.Fprintf(&suite, `{"id": "q%d", "prompt": "Question %d?", "expected": "answer %d"}`+"\n", i, i, i)
	}
	write(t, filepath.Join(dir, "suite.jsonl"), suite.String())
	write(t, filepath.Join(dir, "system.sh"), `if [ -f broken ] && [ "$EVALGATE_ITEM_ID" = q3 ]; then
  echo "a wrong answer, true score 0"
else
  echo "answer for $EVALGATE_ITEM_ID, true score 2"
fi
`)
	cfg := filepath.Join(dir, "evalgate.yaml")
	write(t, cfg, `name: judged-settle
suite: suite.jsonl
baseline: base.jsonl
run:
  exec: {command: [sh, system.sh], dir: `+strconvQuote(dir)+`}
judges:
  default: {model: gpt-4o-2024-08-06, cache_dir: `+strconvQuote(filepath.Join(dir, "cache"))+`, concurrency: 2}
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: accuracy, weight: 1.0, scorer: llm_judge, key: accuracy_score, scale: 0-2}
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: 0.02}
`)
	env := judgeEnv(srv)
	mustRun = func(want int, args ...string) string {
		t.Helper()
		code, stdout, stderr := runWithEnv(t, env, append(args, "--config", cfg)...)
		if code != want {
			t.Fatalf("evalgate %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, stdout, stderr)
		}
		return stdout
	}
	mustRun(cli.ExitPass, "run", "--runs", "3", "--out-dir", filepath.Join(dir, "base"))
	mustRun(cli.ExitPass, "baseline", "--results", filepath.Join(dir, "base", "run1.jsonl"),
		"--results", filepath.Join(dir, "base", "run2.jsonl"), "--results", filepath.Join(dir, "base", "run3.jsonl"))
	write(t, filepath.Join(dir, "broken"), "")
	pr = filepath.Join(dir, "pr.jsonl")
	mustRun(cli.ExitPass, "run", "--out", pr)

	return mustRun, pr
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
