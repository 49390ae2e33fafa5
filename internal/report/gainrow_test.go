package report

import (
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/stats"
)

// A regression gate row whose score rose shows the gain with its sign, never a
// negative drop. The score rose 2.5 pts (0.8 → 0.825), so the estimated drop is
// −2.5 pts: "estimated gain +2.5 pts" beside Δ +2.5 pts (+2.5/80 = +3.1 %). The
// accuracy dimension's own gate (max drop 5 pts, plain Δ of the dimension) rose
// 1.2 pts (0.7 → 0.712): "drop −1.2 pts" before, "gain +1.2 pts" now. A real drop
// still reads as one: with the score down 2.5 pts, "estimated drop 2.5 pts".
func TestGateRowOfARiseShowsTheGain(t *testing.T) {
	rows := func(drop float64) map[string]string {
		ev := stats.EvidenceResult{Items: 100, PredictedMean: 0.8, CandMean: 0.8 - drop, Drop: drop, SE: 0.01, PValue: 0.5}
		cmp := &baseline.Comparison{Base: 0.8, Cand: 0.8 - drop, Delta: -drop, RelDelta: -drop / 0.8, BaselineRuns: 3, CandidateRuns: 1, Compared: 100,
			Evidence: ev, Dimensions: []baseline.DimensionDelta{{Name: "accuracy", Base: 0.7, Cand: 0.712, Delta: 0.012}}}
		md := 0.02
		rg := &gate.Regression{MaxDrop: &md, Mode: gate.Absolute, Level: gate.Hard, Method: gate.MethodEvidence, Inconclusive: gate.InconclusiveWarn,
			Dimensions: map[string]float64{"accuracy": 0.05}}
		v := rg.Compare(cmp)
		r := &Report{Suite: "s", Summary: Summary{Items: 100, Runs: 1, Mean: cmp.Cand}, Comparison: cmp, Gates: v.Gates,
			Regression: v.Regression, Verdict: *v, Mode: gate.Absolute}
		out := map[string]string{}
		for _, row := range r.gateRows(statusIcon) {
			out[row.gateName] = row.actual
		}
		return out
	}
	got := rows(-0.025)
	if a := got["regression"]; a != "estimated gain +2.5 pts (Δ +2.5 pts (+3.1 %))" {
		t.Errorf("score row %q; want the gain, signed", a)
	}
	if a := got["regression: accuracy"]; a != "gain +1.2 pts" {
		t.Errorf("dimension row %q; want the gain, signed", a)
	}
	if a := rows(0.025)["regression"]; a != "estimated drop 2.5 pts (Δ −2.5 pts (−3.1 %))" {
		t.Errorf("score row of a drop %q; want the drop", a)
	}
}
