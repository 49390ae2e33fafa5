package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The assumed bound by hand. With no runs to compare, a run-level shift of sd
// UnmeasuredRunSD = 10 pts on the mean of 200 items is a variance of (0.1·200)² = 400
// on a run's sum, and the difference of two runs (f = 1 + 1) carries 800. An unweighted
// sum of 70 items over an item-level variance of 20 reads 70/√(20 + 800) = 70/28.636 =
// 2.4445, one-sided p = 0.007253, over β = 0.35: 0.020724 (the weighted statistic, at
// 0, adds nothing: 0.5/0.65). A sum of 60 reads 2.0953, p = 0.018072, 0.051634: over
// 5 %, a drop one bad run could explain.
func TestUnmeasuredBoundByHand(t *testing.T) {
	rn := RunNoise{ThinSum: math.Pow(UnmeasuredRunSD*200, 2)}
	r := EvidenceResult{PW: 0.5, PU: 1e-12, UnweightedShare: FewRunsShare}
	if got := thinP(0, 1, 70, 20, 0, rn, 2, r); math.Abs(got-0.020724) > 5e-6 {
		t.Errorf("a sum of 70: PThin %v; want 0.020724", got)
	}
	if got := thinP(0, 1, 60, 20, 0, rn, 2, r); math.Abs(got-0.051634) > 5e-6 {
		t.Errorf("a sum of 60: PThin %v; want 0.051634", got)
	}
}

// oneRunSuite is a suite with a 1-run baseline and one candidate run, nothing else to
// compare (0 degrees of freedom), from a fixed seed: 140 stable items (p = 0.995), 40
// flaky (0.6) and 20 failing (0.005); the first broken stable items fail the
// candidate's run. With rerun, every item that passed the baseline's run and failed
// the candidate's is re-run once (broken items fail again).
func oneRunSuite(t *testing.T, broken int, rerun bool) EvidenceResult {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 5))
	var fit PriorFit
	obs := make([]Observation, 200)
	for i := range obs {
		pi := thinP0(i)
		draw := func() float64 {
			if i >= broken && rng.Float64() < pi {
				return 1
			}
			return 0
		}
		b := 0.0
		if rng.Float64() < pi {
			b = 1
		}
		fit.Add(b, 0, 1)
		c := draw()
		o := Observation{Index: i, BaseMean: b, BaseRuns: 1, CandMean: c, CandRuns: 1}
		if rerun && c == 0 && b == 1 {
			again := draw()
			o.Rounds, o.FullMean, o.FullRuns = []float64{again}, c, 1
			o.CandMean, o.CandRuns = (c+again)/2, 2
		}
		obs[i] = o
	}
	return measureObs(t, &fit, obs)
}

// One baseline run and one candidate run: nothing measures run-level noise. A break of
// 16 stable items (8 pts) stands out from the items' noise (p under 5 %), but a whole
// run 10 pts worse could explain it: PThin over 5 %, the look is inconclusive. A run
// that broke 120 of the 140 stable items (60 pts) is beyond that: PThin under 5 %.
// When the 16 broken items are re-run and fail again, the replication test reads the
// re-runs apart from the run that chose them, and the look blocks (PThin, the doubled
// smaller of the bounded evidence test's p and the replication test's, under 5 %).
func TestNoRunsToCompareAssumeTheBound(t *testing.T) {
	r := oneRunSuite(t, 16, false)
	if r.RunNoise != nil || r.PValue >= 0.05 || r.PThin < 0.05 {
		t.Errorf("16 broken, one run each: run noise %v, p %v, PThin %v; want none measured, p < 0.05, PThin ≥ 0.05", r.RunNoise, r.PValue, r.PThin)
	}
	if r := oneRunSuite(t, 120, false); r.PThin <= 0 || r.PThin >= 0.05 {
		t.Errorf("120 broken: PThin %v; want in (0, 0.05)", r.PThin)
	}
	if r := oneRunSuite(t, 16, true); r.Replication == nil || r.PThin <= 0 || r.PThin >= 0.05 {
		t.Errorf("16 broken and re-run: replication %v, PThin %v; want in (0, 0.05)", r.Replication != nil, r.PThin)
	}
}
