package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
)

// Shards scored apart (a CI matrix) and merged keep what their judges' calls cost: the
// merged report's judge cost is the shards' sum, and so is judge_cost_usd. The judge
// (judgeFake, judge-m) makes 3 distinct calls over the 4 items, whichever shard asks
// (q-3 and q-4 are one request; the second shard finds it in the shared cache if the
// first asked it): 3 × $0.0011 = $0.0033, as unsharded (TestCostHandComputed).
func TestMergedShardsKeepTheJudgeCost(t *testing.T) {
	srv := judgeFake(t)
	cfg, dir := costConfig(t, srv.BaseURL(), "")
	var shards []string
	var sum float64
	calls := 0
	for k := 1; k <= 2; k++ {
		out := filepath.Join(dir, fmt.Sprintf("shard%d.json", k))
		code, stderr := checkTo(t, cfg, "--results", filepath.Join(dir, "r.jsonl"), "--shard", fmt.Sprintf("%d/2", k), "--out", out)
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", k, code, stderr)
		}
		sr := readCostReport(t, out)
		if sr.Cost != nil && sr.Cost.JudgeUSD != nil {
			sum += *sr.Cost.JudgeUSD
			calls += sr.Cost.JudgeCalls
		}
		shards = append(shards, out)
	}
	if srv.Calls() != 3 || calls != 3 || !nearUSD(sum, 0.0033) {
		t.Fatalf("shards made %d calls (fake saw %d) costing $%v; want 3 calls, $0.0033", calls, srv.Calls(), sum)
	}
	m, code, stderr := mergeJSON(t, cfg, shards...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if m.Cost == nil || m.Cost.JudgeUSD == nil || !nearUSD(*m.Cost.JudgeUSD, 0.0033) || m.Cost.JudgeCalls != 3 {
		t.Fatalf("merged judge cost %+v; want $0.0033 over 3 calls", m.Cost)
	}
	// judge_cost_usd prices every verdict as if paid: the second shard's cache hit on
	// q-3/q-4's request counts too, as it would had the shards run apart with cold
	// caches (each shard asks for it once): 4 × $0.0011 = $0.0044, whatever the cache.
	if got := m.Summary.Metrics["judge_cost_usd"]; !nearUSD(got, 0.0044) {
		t.Errorf("merged judge_cost_usd = %v; want 0.0044", got)
	}
	// The pull request's total: the system's $0.0206 (TestCostHandComputed) + $0.0033.
	if m.Cost.TotalUSD == nil || !nearUSD(*m.Cost.TotalUSD, 0.0239) {
		t.Errorf("merged total = %v; want 0.0239", m.Cost.TotalUSD)
	}
	if srv.Calls() != 3 {
		t.Errorf("merge called the judge (%d calls); it only joins the shards' reports", srv.Calls()-3)
	}
}

func readCostReport(t *testing.T, path string) *costReport {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r costReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s is not a JSON report: %v", path, err)
	}
	return &r
}

func checkTo(t *testing.T, cfg string, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	return c.Main(append([]string{"evalgate", "check", "--config", cfg, "--format", "json"}, args...)), stderr.String()
}

func mergeJSON(t *testing.T, cfg string, shards ...string) (*costReport, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	code := c.Main(append([]string{"evalgate", "merge", "--config", cfg, "--format", "json", "--no-baseline"}, shards...))
	var r costReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("exit %d; merged report is not JSON: %v\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	return &r, code, stderr.String()
}
