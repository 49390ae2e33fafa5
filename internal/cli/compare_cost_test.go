package cli_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/report"
)

// TestCompareShowsCostChange: compare prints the cost line check prints, from what the
// two saved runs recorded (cost_usd, judge_cost_usd), for baselines and for saved JSON
// reports alike; a run A that recorded no cost is said to, as check says of a baseline.
func TestCompareShowsCostChange(t *testing.T) {
	srv := judgeFake(t)
	cfg, dir := costConfig(t, srv.BaseURL(), "")
	// double.jsonl: the same answers, every token count doubled.
	double := regexp.MustCompile(`"(input|cached_input|output)_tokens": (\d+)`).ReplaceAllStringFunc(readFile(t, filepath.Join(dir, "r.jsonl")), func(m string) string {
		i := strings.LastIndex(m, " ")
		n, _ := strconv.Atoi(m[i+1:])
		return m[:i+1] + strconv.Itoa(2*n)
	})
	writeFile(t, filepath.Join(dir, "double.jsonl"), double)
	var stdout, stderr bytes.Buffer
	cl := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	run := func(args ...string) (string, int) {
		t.Helper()
		stdout.Reset()
		stderr.Reset()
		code := cl.Main(append([]string{"evalgate"}, args...))
		return stdout.String(), code
	}
	for _, b := range []string{"r", "double"} {
		if _, code := run("baseline", "--config", cfg, "--results", filepath.Join(dir, b+".jsonl"), "--out", filepath.Join(dir, b+".base.jsonl"), "--no-judge-check"); code != 0 {
			t.Fatalf("baseline %s: exit %d: %s", b, code, stderr.String())
		}
		out, code := run("check", "--config", cfg, "--results", filepath.Join(dir, b+".jsonl"), "--baseline", filepath.Join(dir, "r.base.jsonl"), "--format", "json")
		if code > 1 {
			t.Fatalf("check %s: exit %d: %s", b, code, stderr.String())
		}
		writeFile(t, filepath.Join(dir, b+".report.json"), out)
	}

	// r costs $0.0206 a run (TestCostHandComputed); double's tokens are twice r's, so
	// it costs 2 × 0.0206 = $0.0412: +100 %, $0.0412 / 4 = $0.0103 per item and
	// $0.0412 / 3 = $0.013733333 per correct answer (printed to two significant
	// digits: $0.021, $0.041, $0.01, $0.014). The judge sees the same outputs, so its
	// verdicts come from the cache; their judging, hits priced, is 3 × $0.0011 =
	// $0.0033 in both: ±0 %.
	want := "cost $0.021 → $0.041 per run (+100 %) · $0.01 per item · $0.014 per correct answer · judging $0.0033 → $0.0033 (±0 %), cache hits priced"
	for _, ext := range []string{".base.jsonl", ".report.json"} {
		a, b := filepath.Join(dir, "r"+ext), filepath.Join(dir, "double"+ext)
		out, code := run("compare", a, b)
		if code > 1 || !strings.Contains(out, want+"\n") {
			t.Errorf("compare %s: exit %d; want the line %q:\n%s%s", ext, code, want, out, stderr.String())
		}
		js, _ := run("compare", "--format", "json", a, b)
		var r struct{ Cost *report.Cost }
		if err := json.Unmarshal([]byte(js), &r); err != nil {
			t.Fatalf("compare --format json %s: %v\n%s", ext, err, js)
		}
		if c := r.Cost; c == nil || c.Change == nil || *c.Change != 1 || c.JudgingChange == nil || *c.JudgingChange != 0 {
			t.Errorf("compare --format json %s: cost %+v; want change 1 (+100 %%) and judging change 0", ext, r.Cost)
		}
	}

	// A records no cost (its metrics dropped, as a baseline made before evalgate
	// measured cost): B's cost alone, and that A has none.
	noCost := regexp.MustCompile(`"(cost_usd|cost_per_item_usd|cost_per_correct_usd|judge_cost_usd)":[^,}]*,?`).ReplaceAllString(readFile(t, filepath.Join(dir, "r.report.json")), "")
	writeFile(t, filepath.Join(dir, "nocost.report.json"), noCost)
	out, _ := run("compare", filepath.Join(dir, "nocost.report.json"), filepath.Join(dir, "double.report.json"))
	if want := "cost $0.041 per run (the baseline records no cost) · $0.01 per item · $0.014 per correct answer · judging $0.0033, cache hits priced\n"; !strings.Contains(out, want) {
		t.Errorf("A without cost: want %q:\n%s", want, out)
	}
	// B records no cost: no cost line.
	out, _ = run("compare", filepath.Join(dir, "double.report.json"), filepath.Join(dir, "nocost.report.json"))
	if strings.Contains(out, "per run") {
		t.Errorf("B without cost: a cost line:\n%s", out)
	}
}
