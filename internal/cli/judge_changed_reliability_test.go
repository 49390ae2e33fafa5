package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
)

// The base commit's judge (judge-b) differs from the one the baseline was made with
// (judge-a), whose reliability the baseline measured: α 1, it never flips. The pull
// request's answers lose a point of accuracy on half the items. The decision must not
// borrow judge-a's figure for judge-b: the accuracy drop alone is inconclusive, and the
// report says judge-b is unmeasured. Once a baseline is made with judge-b (which
// measures it), the same drop blocks.
func TestAChangedJudgeIsNotGivenTheOldJudgesReliability(t *testing.T) {
	srv := scoringJudge(t, func(_ string, truth, _ int, _ string) int { return truth })
	env := judgeEnv(srv)
	cfg := judgedProject(t, "judge-a")
	dir := filepath.Dir(cfg)
	if code, _, stderr := runWithEnv(t, env, "baseline", "--config", cfg, "--judge-sample", "10"); code != cli.ExitPass {
		t.Fatalf("baseline: exit %d\n%s", code, stderr)
	}
	setModel(t, dir, "judge-b")
	// The answers that deserved 1 now deserve 0: normalized accuracy (0.5 + 1)/2 = 0.75
	// → (0 + 1)/2 = 0.5, Δ −0.25; weight 0.5, so the score drops 12.5 pts, all of it
	// accuracy's (brevity stays 1): without accuracy the drop is 0 ≤ max_drop.
	pr := filepath.Join(dir, "pr.jsonl")
	write(t, pr, judgedRun("baseline answer", func(i int) int { return 2 * (i % 2) }))
	code, stdout, stderr := runWithEnv(t, env, "check", "--config", cfg, "--results", pr, "--format", "json")
	r := decodeReport(t, stdout)
	if code != cli.ExitPass || r.Regression.Outcome != "inconclusive" ||
		!strings.Contains(r.Regression.DecidedBy, "the drop rests on accuracy (judge default changed since the baseline measured its self-agreement, so the new judge's is unmeasured") {
		t.Fatalf("changed, unmeasured judge: exit %d, regression %s (%s); want 0, inconclusive, unmeasured\n%s", code, r.Regression.Outcome, r.Regression.DecidedBy, stderr)
	}
	if !near(r.Comparison.Delta, -0.125) {
		t.Errorf("Δ %v; want −0.125", r.Comparison.Delta)
	}
	if r.Comparison.JudgeReliability != nil {
		t.Errorf("judge-a's figures are reported as the current judge's: %+v", r.Comparison.JudgeReliability)
	}
	if !strings.Contains(stdout, `"judge_unmeasured"`) {
		t.Errorf("JSON lacks judge_unmeasured:\n%.2000s", stdout)
	}
	_, md, _ := runWithEnv(t, env, "check", "--config", cfg, "--results", pr, "--format", "markdown")
	if !strings.Contains(md, "over the 2.0 pts allowed but carried by a judge whose reliability is unmeasured since it changed") {
		t.Errorf("the headline should say the judge is unmeasured, not under the floor:\n%s", md)
	}
	if !strings.Contains(md, "judge reliability · accuracy (default): unmeasured, the judge changed since the baseline (judge \"default\": model judge-a → judge-b") ||
		!strings.Contains(md, "the baseline's self-agreement α 1.000 was the old judge's (default) and is not used, so its drop alone cannot block") {
		t.Errorf("markdown lacks the unmeasured line:\n%s", md)
	}

	// A baseline made with judge-b measures it (α 1: it never disagrees with itself):
	// the drop blocks.
	if code, _, stderr := runWithEnv(t, env, "baseline", "--config", cfg, "--judge-sample", "10"); code != cli.ExitPass {
		t.Fatalf("baseline with judge-b: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr = runWithEnv(t, env, "check", "--config", cfg, "--results", pr, "--format", "json")
	r = decodeReport(t, stdout)
	if code != cli.ExitGateFailed || r.Regression.Outcome != "fail" || r.Comparison.JudgeReliability == nil {
		t.Fatalf("measured judge-b: exit %d, regression %s (%s), reliability %+v; want 1, fail, measured\n%s", code, r.Regression.Outcome, r.Regression.DecidedBy, r.Comparison.JudgeReliability, stderr)
	}
}
