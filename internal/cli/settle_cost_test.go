package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// TestSettleCostCapStopsCleanly: settle's dollar cap, reached inside the `run:` block's
// re-runs, ends settling as "cost spent" (the verdict stays inconclusive and
// regression.inconclusive decides, exit 0), never with a round that wrote nothing.
// Before, the round the cap refused whole left an empty rerunN.jsonl and the check
// failed on it: "results file is empty", exit 2.
func TestSettleCostCapStopsCleanly(t *testing.T) {
	srv := chattest.New(t, "/v1", answer) // "A-NN", 10 prompt + 5 completion tokens
	cfg := budgetConfig(t, srv.BaseURL()) // 10 items, $0.001 a token, max_tokens 10
	dir := filepath.Dir(cfg)
	t.Chdir(dir)
	body, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The regression gate alone decides: no pass-rate gate blocks the dropped items.
	writeFile(t, cfg, strings.Replace(string(body), "min: 0.9", "min: 0.1", 1))
	line := func(i int, out string) string {
		return fmt.Sprintf("{\"id\":\"q-%02d\",\"output\":%q,\"latency_e2e_ms\":1,\"input_tokens\":10,\"output_tokens\":5,\"model\":\"fake-model-2026-01-01\"}\n", i, out)
	}
	// Three baseline runs where q-01..q-06 each fail once (flaky), and a pull request
	// where q-01..q-04 fail: a drop the baseline's noise can explain (inconclusive).
	var runs [3]strings.Builder
	var pr strings.Builder
	for i := 1; i <= 10; i++ {
		for k := range runs {
			out := fmt.Sprintf("A-%02d", i)
			if i <= 6 && (i+k)%3 == 0 {
				out = "wrong"
			}
			runs[k].WriteString(line(i, out))
		}
		out := fmt.Sprintf("A-%02d", i)
		if i <= 4 {
			out = "wrong"
		}
		pr.WriteString(line(i, out))
	}
	for k := range runs {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("base%d.jsonl", k+1)), runs[k].String())
	}
	writeFile(t, filepath.Join(dir, "pr.jsonl"), pr.String())
	run := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
		code := c.Main(append([]string{"evalgate"}, args...))
		return code, stdout.String() + stderr.String()
	}
	if code, out := run("baseline", "--config", cfg, "--quiet", "--results", "base1.jsonl", "--results", "base2.jsonl", "--results", "base3.jsonl", "--out", "baseline.jsonl"); code != 0 {
		t.Fatalf("baseline: exit %d: %s", code, out)
	}
	if code, out := run("check", "--config", cfg, "--quiet", "--results", "pr.jsonl", "--baseline", "baseline.jsonl"); code != gate.ExitPass || !strings.Contains(out, "inconclusive") {
		t.Fatalf("without settle: exit %d; want an inconclusive first look: %s", code, out)
	}

	// An item-run costs (10 + 5) × $0.001 = $0.015 (the first look: 10 item-runs for
	// $0.15); its worst case is (10 prompt bytes + 16 overhead + 10 max_tokens) ×
	// $0.001 = $0.036. With a cap of $0.05, round 1 is sized 0.05 / 0.015 = 3 items; the
	// run block starts the first (0.036 ≤ 0.05) and refuses the second (0.015 + 0.036 =
	// 0.051 > 0.05). $0.035 is left, under one worst case: no other re-run can start.
	code, out := run("check", "--config", cfg, "--quiet", "--results", "pr.jsonl", "--baseline", "baseline.jsonl",
		"--settle", "--settle-dir", "settle", "--settle-budget", "20", "--settle-max-cost-usd", "0.05")
	if code != gate.ExitPass {
		t.Fatalf("check --settle with a dollar cap: exit %d; want 0 (still inconclusive, which warns): %s", code, out)
	}
	if !strings.Contains(out, "cost spent") || !strings.Contains(out, "1 of 20 extra item-runs · $0.015 of max_cost_usd $0.05") {
		t.Errorf("settle does not say the cap stopped it after 1 item-run for $0.015:\n%s", out)
	}
	if srv.Calls() != 1 {
		t.Errorf("%d calls; want 1 (no call starts once the cap refuses one)", srv.Calls())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "settle", "*"))
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("settle left %s empty", f)
		}
	}
}
