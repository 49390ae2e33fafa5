package stats

import (
	"math"
	"testing"
)

// A re-run item that did not fall SelectedZ below its prediction is read by the
// estimate according to why it was re-run. Ten items, each with baseline runs
// pass, pass, fail (mean 2/3, variance 1/3); the first failed its one full run and
// passed its one re-run (candidate mean 1/2 over 2 runs). Its deficit from a
// prediction near 0.6, over a standard deviation near 0.5, is about 1.2 SD, under 2.
// Flipped (re-run for the estimate's sake, chosen by the baseline alone), it averages:
// candidate 1/2. Not flipped (re-run because of how it scored), the estimate reads its
// full run alone: candidate 0. So the estimated drop differs by (1/2 − 0)/10 = 0.05,
// and the evidence test, which reads every run either way, not at all.
func TestEstimateReadsAnOutcomeChosenItemByItsFullRuns(t *testing.T) {
	measure := func(flipped bool) EvidenceResult {
		var fit PriorFit
		for range 10 {
			fit.Add(2.0/3, 1.0/3, 3)
		}
		acc := NewEvidenceAccumulator(fit.Prior(), 5)
		for k := range 10 {
			o := Observation{Index: k, BaseMean: 2.0 / 3, BaseRuns: 3, BaseVar: 1.0 / 3, CandMean: 2.0 / 3, CandRuns: 1}
			if k == 0 {
				o.CandMean, o.CandRuns = 0.5, 2
				o.Rounds, o.FullMean, o.FullRuns, o.Flipped = []float64{1}, 0, 1, flipped
			}
			acc.Add(o)
		}
		r, err := acc.Result()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	avg, full := measure(true), measure(false)
	if d := full.Drop - avg.Drop; math.Abs(d-0.05) > 1e-12 {
		t.Errorf("drop read by the full run %v, averaged %v: difference %v; want 0.05", full.Drop, avg.Drop, d)
	}
	if avg.Z != full.Z || avg.ZU != full.ZU || avg.Replication != nil || full.Replication != nil {
		t.Errorf("evidence z %v / %v, z_u %v / %v, replication %v / %v; want the same z, no replication test",
			avg.Z, full.Z, avg.ZU, full.ZU, avg.Replication, full.Replication)
	}
}
