package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/stats"
)

// A drop beyond the suite's noise that rests on a judge under the α floor is
// inconclusive because of the judge: the headline says so, never "within the suite's
// noise", which the decision's own line contradicts ("and beyond the suite's noise").
func TestHeadlineSaysTheJudgeFloorKeptItFromBlocking(t *testing.T) {
	// Ten stable items of 60 break on the one judged dimension: a 16.7-pt drop.
	ev := stats.EvidenceResult{Items: 60, PredictedMean: 0.9, CandMean: 0.9 - 10.0/60, Drop: 10.0 / 60, SE: 0.01, Z: 9, PValue: 1e-9,
		SumPQ: 0.5, SumVarP: 0.01}
	cmp := &baseline.Comparison{Base: 0.9, Cand: 0.9 - 10.0/60, Delta: -10.0 / 60, RelDelta: -10.0 / 60 / 0.9, BaselineRuns: 3, CandidateRuns: 3, Compared: 60,
		CI: stats.Interval{Lo: -0.2, Hi: -0.13, Level: 0.95}, Evidence: ev,
		Dimensions: []baseline.DimensionDelta{{Name: "accuracy", Base: 0.9, Cand: 0.9 - 10.0/60, Delta: -10.0 / 60}}}
	alpha := 0.5
	cmp.JudgeReliability = &reliability.Measurement{Sample: 50, Repeats: 3, Dimensions: []reliability.Dimension{
		{Name: "accuracy", Judge: "default", Weight: 1, Level: stats.LevelInterval, Alpha: &alpha, Variance: 0.0001, Units: 50}}}
	md := 0.02
	rg := &gate.Regression{MaxDrop: &md, Mode: gate.Absolute, Level: gate.Hard, Method: gate.MethodEvidence, Inconclusive: gate.InconclusiveWarn}
	v := rg.Compare(cmp)
	d := v.Regression
	if d.Outcome != gate.Inconclusive || !d.Rejects || d.Judge == nil || d.Judge.Reason == "" {
		t.Fatalf("outcome %s, rejects %v, judge %+v: the case does not test what it says (%s)", d.Outcome, d.Rejects, d.Judge, d.DecidedBy)
	}
	r := &Report{Suite: "s", Summary: Summary{Items: 60, Runs: 3, Mean: cmp.Cand}, Comparison: cmp, Gates: v.Gates,
		Regression: v.Regression, Verdict: *v, Mode: gate.Absolute}
	h := r.headline()
	if strings.Contains(h, "within the suite's noise") || !strings.Contains(h, "judge under the reliability floor") {
		t.Errorf("headline %q; want the judge floor as the reason, not the suite's noise", h)
	}
}
