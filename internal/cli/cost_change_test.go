package cli_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
)

// TestCostChangeLineAgreesWithGate: the cost line prints the change as the
// max_increase gate does, with a real minus sign (U+2212) as scores have it, and
// "+∞ %" from a baseline that cost $0, which the JSON report carries as
// change_infinite (JSON has no infinity) instead of failing to be written.
func TestCostChangeLineAgreesWithGate(t *testing.T) {
	srv := judgeFake(t)
	cfg, dir := costConfig(t, srv.BaseURL(), "  gates: [{metric: cost_usd, max_increase: 20%}]\n")
	// zero.jsonl: the same answers, every token count 0: priced, at $0.
	zero := regexp.MustCompile(`"(input|cached_input|output)_tokens": \d+`).ReplaceAllString(readFile(t, filepath.Join(dir, "r.jsonl")), `"${1}_tokens": 0`)
	writeFile(t, filepath.Join(dir, "zero.jsonl"), zero)
	var stdout, stderr bytes.Buffer
	cl := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	for _, b := range []string{"zero", "r"} {
		if code := cl.Main([]string{"evalgate", "baseline", "--config", cfg, "--results", filepath.Join(dir, b+".jsonl"), "--out", filepath.Join(dir, b+".base.jsonl")}); code != 0 {
			t.Fatalf("baseline %s: exit %d: %s", b, code, stderr.String())
		}
	}

	// From $0 to $0.0206 (TestCostHandComputed): +∞ %, over +20 %: blocked, and the
	// line says the same change the gate does.
	r, code, stderrS := checkJSON(t, cfg, "--results", filepath.Join(dir, "r.jsonl"), "--baseline", filepath.Join(dir, "zero.base.jsonl"))
	inf := false
	for _, g := range r.Gates {
		inf = inf || (g.Metric == "cost_usd" && g.ChangeInfinite && g.Change == nil)
	}
	if code != 1 || r.Cost == nil || !r.Cost.ChangeInfinite || r.Cost.Change != nil || !inf {
		t.Fatalf("from $0: exit %d, cost %+v, gates %+v; want 1 and an infinite change in both: %s", code, r.Cost, r.Gates, stderrS)
	}
	if !strings.Contains(r.Verdict.Reason, "cost_usd $0.00 → $0.021 (+∞ %) > +20 %") {
		t.Errorf("reason %q; want the gate's +∞ %%", r.Verdict.Reason)
	}
	md := markdownOf(t, cfg, "--results", filepath.Join(dir, "r.jsonl"), "--baseline", filepath.Join(dir, "zero.base.jsonl"))
	if !strings.Contains(md, "cost $0.00 → $0.021 per run (+∞ %)") {
		t.Errorf("cost line has not the gate's +∞ %%:\n%s", md)
	}

	// From $0.0206 to $0: (0 − 0.0206) / 0.0206 = −100 %, with U+2212 in both.
	r, code, _ = checkJSON(t, cfg, "--results", filepath.Join(dir, "zero.jsonl"), "--baseline", filepath.Join(dir, "r.base.jsonl"))
	if code != 0 || r.Cost == nil || r.Cost.Change == nil || *r.Cost.Change != -1 {
		t.Fatalf("cheaper: exit %d, cost %+v; want 0 and change −1", code, r.Cost)
	}
	md = markdownOf(t, cfg, "--results", filepath.Join(dir, "zero.jsonl"), "--baseline", filepath.Join(dir, "r.base.jsonl"))
	if !strings.Contains(md, "per run (−100 %)") || !strings.Contains(md, "(−100 %)") || strings.Contains(md, "-100 %") {
		t.Errorf("cost change not printed with U+2212 as scores are:\n%s", md)
	}
}
