package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The assumed bound by hand. With no runs to compare, the runs are read as if they had
// spread as their items predict, W, on 2 degrees of freedom: the run-level variance's
// 90 % upper bound is W·(2/0.210721 − 1) = 8.4912·W (TestThinP), 169.824 for W = 20,
// and the difference of two runs (f = 1 + 1) carries 339.649. An unweighted sum of 50
// items over an item-level variance of 20 reads 50/√(20 + 339.649) = 50/18.9644 =
// 2.6365, one-sided p = 0.0041881, over β = 0.35: 0.011966 (the weighted statistic,
// at 0, adds nothing: 0.5/0.65). A sum of 35 reads 1.8456, p = 0.032478, 0.092794:
// over 5 %, a drop one bad run could explain.
func TestUnmeasuredBoundByHand(t *testing.T) {
	ts := upperVariance(0, 20, UnmeasuredDF, ThinGamma)
	if math.Abs(ts-169.824) > 1e-3 {
		t.Fatalf("assumed bound %v; want 169.824", ts)
	}
	rn := RunNoise{ThinSum: ts}
	r := EvidenceResult{PW: 0.5, PU: 1e-12, UnweightedShare: FewRunsShare}
	if got := thinP(0, 1, 50, 20, 0, rn, 2, r); math.Abs(got-0.011966) > 5e-6 {
		t.Errorf("a sum of 50: PThin %v; want 0.011966", got)
	}
	if got := thinP(0, 1, 35, 20, 0, rn, 2, r); math.Abs(got-0.092794) > 5e-6 {
		t.Errorf("a sum of 35: PThin %v; want 0.092794", got)
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
// 16 stable items (8 pts) stands out from the items' noise (p under 5 %), but runs that
// spread as their 60 noisy items predict, read on 2 degrees of freedom, could hide a
// run bad enough to explain it: PThin over 5 %, the look is inconclusive. A run that
// broke 120 of the 140 stable items (60 pts) is beyond that: PThin under 5 %. When the
// 16 broken items are re-run and fail again, the replication test reads the re-runs
// apart from the run that chose them, and the look blocks (PThin, the doubled smaller
// of the bounded evidence test's p and the replication test's, under 5 %).
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

// An all-pass suite of 1,000 items with one baseline run: its items predict almost no
// noise, so the assumed run-level noise is small too, and a 2.5-pt break (25 items
// failing one run) blocks on the first look (PThin under 5 %), as beside a three-run
// all-pass baseline (RunNoise.Still).
func TestNoRunsToCompareAllPassKeepsItsPower(t *testing.T) {
	var fit PriorFit
	obs := make([]Observation, 1000)
	for i := range obs {
		fit.Add(1, 0, 1)
		c := 1.0
		if i < 25 {
			c = 0
		}
		obs[i] = Observation{Index: i, BaseMean: 1, BaseRuns: 1, CandMean: c, CandRuns: 1}
	}
	r := measureObs(t, &fit, obs)
	if r.PThin <= 0 || r.PThin >= 0.05 || r.PValue >= 0.05 {
		t.Errorf("all-pass, 25 of 1,000 broken: p %v, PThin %v; want both under 0.05 (PThin set)", r.PValue, r.PThin)
	}
}
