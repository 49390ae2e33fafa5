package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/gate"
)

// TestJudgeCostIgnoresCacheLuck: judge_cost_usd is the judging's cost with every
// verdict priced, so a baseline made with a warm judge cache does not record $0 and a
// gate on its change does not block the first PR that pays for its judge calls
// ("+∞ %"), nor does a warm cache make a PR look cheaper. The cost line still says
// what was paid.
func TestJudgeCostIgnoresCacheLuck(t *testing.T) {
	srv := judgeFake(t)
	cfg, dir := costConfig(t, srv.BaseURL(), "  gates: [{metric: judge_cost_usd, max_increase: 20%}]\n")
	results := filepath.Join(dir, "r.jsonl")
	cache := filepath.Join(dir, "judge-cache")
	// Each judge call (judgeFake): (1000 − 200) × $1 + 200 × $0.50 + 50 × $4 per
	// million = 800 + 100 + 200 = 1100 → $0.0011; 3 requests (q-3 and q-4 are one):
	// $0.0033, whether paid now or read from the cache, whose entries recorded the
	// same tokens.
	if r, code, stderr := checkJSON(t, cfg, "--results", results); code != 0 || !nearUSD(r.Summary.Metrics["judge_cost_usd"], 0.0033) {
		t.Fatalf("cold cache: exit %d, judge_cost_usd %v; want 0, 0.0033: %s", code, r.Summary.Metrics["judge_cost_usd"], stderr)
	}

	// The baseline is made with the cache warm: no call is paid, yet it records $0.0033.
	base := filepath.Join(dir, "base.jsonl")
	var stdout, stderr bytes.Buffer
	cl := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	if code := cl.Main([]string{"evalgate", "baseline", "--config", cfg, "--results", results, "--out", base}); code != 0 {
		t.Fatalf("baseline: exit %d: %s", code, stderr.String())
	}
	// The baseline's reliability re-judging made calls of its own; they are not part of
	// the run's judging and are left out of its judge_cost_usd.
	calls := srv.Calls()
	if b := readFile(t, base); !strings.Contains(b, `"judge_cost_usd":0.0033`) && !strings.Contains(b, `"judge_cost_usd": 0.0033`) {
		t.Errorf("baseline made with a warm cache does not record judge_cost_usd 0.0033:\n%.600s", b)
	}

	// A baseline made before cache hits were priced recorded only what was paid ($0
	// with a warm cache); it says nothing of the judging's cost, so the gate on its
	// change is skipped with a notice (as a baseline older than costs), never failed.
	old := regexp.MustCompile(`,"judge_cost_prices_hits":true|"judge_cost_prices_hits":true,`).ReplaceAllString(readFile(t, base), "")
	old = regexp.MustCompile(`"judge_cost_usd":[0-9.e-]+`).ReplaceAllString(old, `"judge_cost_usd":0`)
	if old == readFile(t, base) {
		t.Fatal("could not make the old baseline")
	}
	writeFile(t, filepath.Join(dir, "old.jsonl"), old)

	// A PR with a warm cache pays nothing and still costs $0.0033: change 0 %, pass.
	// The line says both: $0 paid, $0.0033 with the 3 hits priced.
	r, code, _ := checkJSON(t, cfg, "--results", results, "--baseline", base)
	if code != 0 || !nearUSD(r.Summary.Metrics["judge_cost_usd"], 0.0033) || r.Cost.JudgeUSD == nil || *r.Cost.JudgeUSD != 0 {
		t.Errorf("warm PR: exit %d, judge_cost_usd %v, paid %v; want 0, 0.0033, $0", code, r.Summary.Metrics["judge_cost_usd"], r.Cost.JudgeUSD)
	}
	md := markdownOf(t, cfg, "--results", results, "--baseline", base)
	if !strings.Contains(md, "judge $0.00 paid (0 call(s)), $0.0033 with the cache's 3 hit(s) priced") {
		t.Errorf("cost line does not say what was paid and what the judging costs:\n%s", md)
	}

	// A PR with a cold cache pays the 3 calls: the same $0.0033, change 0 %, pass (the
	// old rule compared $0.0033 with the baseline's $0: "+∞ %", blocked).
	if err := os.RemoveAll(cache); err != nil {
		t.Fatal(err)
	}
	r, code, _ = checkJSON(t, cfg, "--results", results, "--baseline", filepath.Join(dir, "old.jsonl"))
	skipped := false
	for _, g := range r.Gates {
		skipped = skipped || (g.Metric == "judge_cost_usd" && g.Status == gate.Skipped)
	}
	if code != 0 || srv.Calls() != calls+3 || !skipped {
		t.Errorf("cold PR on an old baseline: exit %d, fake calls %d, gates %+v; want 0, %d, the judge_cost_usd gate skipped", code, srv.Calls(), r.Gates, calls+3)
	}
	if err := os.RemoveAll(cache); err != nil {
		t.Fatal(err)
	}
	r, code, _ = checkJSON(t, cfg, "--results", results, "--baseline", base)
	if code != 0 || srv.Calls() != calls+6 || !nearUSD(r.Summary.Metrics["judge_cost_usd"], 0.0033) {
		t.Errorf("cold PR: exit %d, fake calls %d, judge_cost_usd %v; want 0, %d, 0.0033; verdict %q", code, srv.Calls(), r.Summary.Metrics["judge_cost_usd"], calls+6, r.Verdict.Reason)
	}
}
