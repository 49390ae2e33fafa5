package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/stats"
)

// An estimated drop of 2.04 pts against max_drop 2 pts rounds to "2.0" at one decimal:
// the headline and the gate table must print it at the precision the comparison shows
// ("2.04 pts, over the 2.00 pts allowed"), never "2.0 pts over 2.0 pts", as the
// statistics line does ("2.04 pts > 2.00 pts").
func TestHeadlineAndGateRowCompareAtOnePrecision(t *testing.T) {
	// One stable item of 49 breaks: the drop is 1/49 = 2.04 pts, over 2 pts.
	ev := stats.EvidenceResult{Items: 49, PredictedMean: 0.99, CandMean: 0.99 - 1.0/49, Drop: 1.0 / 49, SE: 0.004, Z: 5, PValue: 1e-5,
		SumPQ: 0.2, SumVarP: 0.01}
	cmp := &baseline.Comparison{Base: 0.99, Cand: 0.99 - 1.0/49, Delta: -1.0 / 49, RelDelta: -1.0 / 49 / 0.99, CandidateRuns: 1, Compared: 49,
		CI: stats.Interval{Lo: -0.06, Hi: 0, Level: 0.95}, Evidence: ev,
		EvidenceItems: []baseline.EvidenceItem{{ID: "q1", BaseScore: 1, BaseRuns: 3, BasePassRate: 1, Predicted: 0.99, CandRuns: 1, Z: 9}}}
	md := 0.02
	rg := &gate.Regression{MaxDrop: &md, Mode: gate.Absolute, Level: gate.Hard, Method: gate.MethodEvidence, Inconclusive: gate.InconclusiveWarn}
	v := rg.Compare(cmp)
	if !v.Regression.Exceeded {
		t.Fatalf("estimated drop %v not over 0.02: the case does not test what it says", v.Regression.Value)
	}
	r := &Report{Suite: "s", Summary: Summary{Items: 49, Runs: 1, Mean: cmp.Cand}, Comparison: cmp, Gates: v.Gates,
		Regression: v.Regression, Verdict: *v, Mode: gate.Absolute}
	var table bytes.Buffer
	if err := r.WriteTerminal(&table, Terminal{Width: 400}); err != nil {
		t.Fatal(err)
	}
	md2 := r.Markdown(MarkdownOptions{})
	same := regexp.MustCompile(`\b(\d+\.\d+) pts,? (over|>|&gt;|≤|within) (the )?(\d+\.\d+) pts`)
	for name, out := range map[string]string{"headline": r.headline(), "table": table.String(), "markdown": md2} {
		for _, m := range same.FindAllStringSubmatch(out, -1) {
			if m[1] == m[4] {
				t.Errorf("%s prints %q: one figure compared with itself", name, m[0])
			}
		}
		if !strings.Contains(out, "2.04 pts") {
			t.Errorf("%s: no 2.04 pts:\n%s", name, out)
		}
	}
	// The gate table's cells: the threshold at the figure's precision.
	for _, row := range r.gateRows(statusIcon) {
		if row.name == "regression" && (!strings.Contains(row.actual, "2.04 pts") || row.threshold != "drop ≤ 2.00 pts") {
			t.Errorf("gate row: actual %q, threshold %q; want 2.04 pts beside drop ≤ 2.00 pts", row.actual, row.threshold)
		}
	}
}
