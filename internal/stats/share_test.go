package stats

import (
	"math"
	"testing"
)

// β, the unweighted statistic's share of the level, follows the runs' degrees of
// freedom: 0.35 below SharedDF (no guard, or a three-run baseline beside one candidate
// run: 2 df), 0.5 from it on (three candidate runs beside it: 4 df).
func TestShare(t *testing.T) {
	for df, want := range map[int]float64{0: 0.35, 2: 0.35, 3: 0.35, 4: 0.5, 12: 0.5} {
		if got := Share(df); got != want {
			t.Errorf("Share(%d) = %v; want %v", df, got, want)
		}
	}
	// A shift of flaky items: the weighted statistic sees nothing (p_w = 0.5), the
	// unweighted one p_u = 0.02. With β = 0.5 the combined p is min(0.5/0.5, 0.02/0.5)
	// = 0.04 < 0.05: rejected. With β = 0.35 it is 0.02/0.35 = 0.0571: not.
	if got := CombineP(0.5, 0.02, Share(4)); math.Abs(got-0.04) > 1e-12 {
		t.Errorf("CombineP at 4 df = %v; want 0.04", got)
	}
	if got := CombineP(0.5, 0.02, Share(2)); math.Abs(got-0.02/0.35) > 1e-12 {
		t.Errorf("CombineP at 2 df = %v; want 0.02/0.35 = 0.0571", got)
	}
}

// Through the accumulator: three baseline runs with per-run scores give 2 df, β = 0.35;
// a group of three candidate runs adds 2 more, β = 0.5, and the result says so.
func TestShareFromRuns(t *testing.T) {
	measure := func(groups ...RunGroup) EvidenceResult {
		var fit PriorFit
		for k := range 40 {
			fit.Add(float64(k%4)/3, 1.0/3, 3)
		}
		acc := NewEvidenceAccumulator(fit.Prior(), 0)
		acc.RunGroups(groups...)
		for k := range 40 {
			// bits 0b001, 0b011, 0b111, 0b000 by k: means 1/3, 2/3, 1, 0 as fitted.
			bits := []uint64{0b000, 0b001, 0b011, 0b111}[k%4]
			acc.Add(Observation{Index: k, BaseMean: float64(k%4) / 3, BaseRuns: 3, CandMean: 0.5, CandRuns: 3,
				BaseVar: []float64{0, 1.0 / 3, 1.0 / 3, 0}[k%4], BaseBits: bits, HasBits: true})
		}
		r, err := acc.Result()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := measure(); r.DF != 2 || r.UnweightedShare != 0.35 {
		t.Errorf("baseline runs alone: df %v, β %v; want 2 and 0.35", r.DF, r.UnweightedShare)
	}
	r := measure(RunGroup{Means: []float64{0.50, 0.52, 0.48}, Source: "candidate"})
	if r.DF != 4 || r.UnweightedShare != 0.5 {
		t.Errorf("with three candidate runs: df %v, β %v; want 4 and 0.5", r.DF, r.UnweightedShare)
	}
	if want := math.Min(1, math.Min(r.PW/0.5, r.PU/0.5)); math.Abs(r.PValue-want) > 1e-12 {
		t.Errorf("p = %v; want min(p_w/0.5, p_u/0.5) = %v", r.PValue, want)
	}
}
