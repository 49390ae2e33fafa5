package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCostLineCountsReruns: every run, and the re-runs of some items (`check --rerun`,
// and settle's), are part of what the pull request cost, so the cost line gives the
// PR's total beside the cost per run. Before, without a judge, it gave the per-run
// cost alone (the line is made before the report's runs are filled in, so "several
// runs" never held), and the other runs' and re-runs' dollars were only in the JSON's
// total_usd.
func TestCostLineCountsReruns(t *testing.T) {
	cfg, dir := twoItemCostConfig(t)
	// USD per million tokens: q-1 1000 × 2 + 200 × 10 = 4000 → $0.004; q-2 2000 × 2 +
	// 100 × 10 = 5000 → $0.005; the run: $0.009. The re-run of q-2 costs $0.005 again,
	// so the pull request cost 0.009 + 0.005 = $0.014.
	writeFile(t, filepath.Join(dir, "r.jsonl"), `{"id": "q-1", "output": "one", "input_tokens": 1000, "output_tokens": 200}
{"id": "q-2", "output": "no idea", "input_tokens": 2000, "output_tokens": 100}
`)
	writeFile(t, filepath.Join(dir, "rerun.jsonl"), `{"id": "q-2", "output": "two", "input_tokens": 2000, "output_tokens": 100}
`)
	r, _, stderr := checkJSON(t, cfg, "--results", filepath.Join(dir, "r.jsonl"), "--rerun", filepath.Join(dir, "rerun.jsonl"))
	if c := r.Cost; c == nil || c.PerRunUSD == nil || !nearUSD(*c.PerRunUSD, 0.009) || c.TotalUSD == nil || !nearUSD(*c.TotalUSD, 0.014) {
		t.Fatalf("cost %+v (%s); want $0.009 per run, $0.014 in all", r.Cost, stderr)
	}
	md := markdownOf(t, cfg, "--results", filepath.Join(dir, "r.jsonl"), "--rerun", filepath.Join(dir, "rerun.jsonl"))
	if !strings.Contains(md, "cost $0.009 per run · ") || !strings.Contains(md, " · this PR $0.014 · ") {
		t.Errorf("the cost line does not give the PR's total with the re-run:\n%s", md)
	}
	// Two runs of $0.009: $0.018 in all.
	md = markdownOf(t, cfg, "--results", filepath.Join(dir, "r.jsonl"), "--results", filepath.Join(dir, "r.jsonl"))
	if !strings.Contains(md, "cost $0.009 per run · ") || !strings.Contains(md, " · this PR $0.018 · ") {
		t.Errorf("the cost line does not give the PR's total over two runs:\n%s", md)
	}
	// Without the re-run the total is the one run's: it is not repeated.
	if md := markdownOf(t, cfg, "--results", filepath.Join(dir, "r.jsonl")); strings.Contains(md, "this PR") {
		t.Errorf("one run alone repeats its cost as the PR's:\n%s", md)
	}
}

// twoItemCostConfig is a 2-item suite scored by `contains`, with model-a (the default
// model) at $2 input and $10 output per million tokens.
func twoItemCostConfig(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "evalgate.yaml")
	writeFile(t, cfg, `suite: suite.yaml
metadata: {model_id: model-a}
pricing:
  models:
    model-a: {input: 2, output: 10}
scoring:
  version: scoringSystem/1.0.0
  dimensions: [{name: correctness, weight: 1, scorer: contains}]
grading:
  version: gradingSystem/1.0.0
`)
	writeFile(t, filepath.Join(dir, "suite.yaml"), "items:\n  - {id: q-1, prompt: \"one?\", expected: [one]}\n  - {id: q-2, prompt: \"two?\", expected: [two]}\n")
	return cfg, dir
}

// TestCostLineQuotesUnknownModels: a model without a price is named in the cost line,
// and the name comes from the results file: its backticks must not open a code span
// in the comment (the line's own `pricing:` is one). Before, model "x`y`" printed y as
// code.
func TestCostLineQuotesUnknownModels(t *testing.T) {
	cfg, dir := twoItemCostConfig(t)
	writeFile(t, filepath.Join(dir, "r.jsonl"), `{"id": "q-1", "output": "one", "input_tokens": 10, "output_tokens": 2, "model": "x`+"`y`"+`"}
`)
	md := markdownOf(t, cfg, "--results", filepath.Join(dir, "r.jsonl"))
	if !strings.Contains(md, "> cost unknown: x") || strings.Contains(md, "<code>y</code>") {
		t.Errorf("the cost line lets the model's backticks open a code span:\n%s", md)
	}
}
