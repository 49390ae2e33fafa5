package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The bound by hand. On 2 degrees of freedom χ²₂'s 10 % quantile is −2·ln 0.9 =
// 0.210721, so runs that spread only as their item-level noise W predicts (excess 0)
// bound the run-level variance at W·2/0.210721 − W = 8.4912·W.
//
// thinP with item-level variances 1 (both statistics), that bound, f = 1 + 1/3 (one
// candidate run, three baseline runs) and no skew: the weighted statistic 6 reads
// 6/√(1 + 8.4912·4/3) = 6/3.5103 = 1.7093, p = 0.04370; the unweighted one, 0, p =
// 0.5; combined at β = 0.35, min(0.04370/0.65, 0.5/0.35) = 0.06723: a bad run of that
// size is within what three agreeing runs allow. A weighted statistic of 30 reads
// 8.546, p ≈ 6e-18: no run the bound allows explains it. With the outage scale k = 4
// the unweighted bound carries to the weighted statistic four times over:
// 6/√(1 + 4·8.4912·4/3) = 6/6.8034 = 0.8818, p = 0.1889, combined 0.2907.
func TestThinP(t *testing.T) {
	b := 2/(-2*math.Log(0.9)) - 1
	if got := upperVariance(0, 1, 2, ThinGamma); math.Abs(got-b) > 1e-6 || math.Abs(b-8.4912) > 1e-4 {
		t.Fatalf("upper bound %v; want %v (8.4912)", got, b)
	}
	rn := RunNoise{ThinWeighted: b, ThinSum: b}
	r := EvidenceResult{PW: 1e-20, PU: 0.5, UnweightedShare: FewRunsShare}
	if got := thinP(6, 1, 0, 1, 0, rn, 4.0/3, r); math.Abs(got-0.06723) > 5e-5 {
		t.Errorf("a weighted statistic of 6: PThin %v; want 0.06723", got)
	}
	if got := thinP(30, 1, 0, 1, 0, rn, 4.0/3, r); got > 1e-16 {
		t.Errorf("a weighted statistic of 30: PThin %v; want about 1e-17", got)
	}
	if got := thinP(6, 1, 0, 1, 4, rn, 4.0/3, r); math.Abs(got-0.2907) > 5e-4 {
		t.Errorf("outage scale 4: PThin %v; want 0.2907", got)
	}
	// Each statistic is at least its own p-value: a weighted p of 0.04 carries over,
	// 0.04/0.65 = 0.061538.
	r.PW = 0.04
	if got := thinP(30, 1, 0, 1, 0, rn, 4.0/3, r); math.Abs(got-0.04/0.65) > 1e-12 {
		t.Errorf("PThin %v; want the weighted p 0.04 over 0.65", got)
	}
}

// thinP0 is item i's pass probability in the thin suites: 140 stable items at 0.995,
// then 40 flaky at 0.6 and 20 failing at 0.005.
func thinP0(i int) float64 {
	switch {
	case i >= 180:
		return 0.005
	case i >= 140:
		return 0.6
	}
	return 0.995
}

// thinItem is item i of the thin suites (140 stable items at p = 0.995, 40 flaky at
// 0.6, 20 failing at 0.005) with its three baseline runs drawn, added to fit.
func thinItem(rng *rand.Rand, i int, fit *PriorFit) (float64, Observation) {
	pi := thinP0(i)
	var bits uint64
	k := 0
	for r := range 3 {
		if rng.Float64() < pi {
			bits |= 1 << r
			k++
		}
	}
	m := float64(k) / 3
	v := m * (1 - m) * 3 / 2
	fit.Add(m, v, 3)
	return pi, Observation{Index: i, BaseMean: m, BaseRuns: 3, BaseVar: v, BaseBits: bits, HasBits: true}
}

// thinSuite draws a suite like a real one, from a fixed seed: 140 stable items (p =
// 0.995), 40 flaky ones (p = 0.6) and 20 that fail (p = 0.005), three baseline runs
// of item-level noise only, and candRuns candidate runs that are all bad days: every
// item fails outright with probability outage in them, and broken stable items fail.
// With rerun (one candidate run), a settle round follows: every item that failed the
// run and passed a baseline run is re-run once in a fresh run with no outage (broken
// items fail again).
func thinSuite(t *testing.T, outage float64, broken, candRuns int, rerun bool) EvidenceResult {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	var fit PriorFit
	obs := make([]Observation, 200)
	for i := range obs {
		pi, o := thinItem(rng, i, &fit)
		pass := func(bad float64) float64 {
			if i >= broken && rng.Float64() >= bad && rng.Float64() < pi {
				return 1
			}
			return 0
		}
		c := 0.0
		for range candRuns {
			c += pass(outage)
		}
		o.CandMean, o.CandRuns, o.Flipped = c/float64(candRuns), candRuns, o.BaseMean > 0 && o.BaseMean < 1
		if rerun && c == 0 && o.BaseMean > 0 {
			again := pass(0)
			o.Rounds, o.FullMean, o.FullRuns = []float64{again}, c, 1
			o.CandMean, o.CandRuns = (c+again)/2, 2
		}
		obs[i] = o
	}
	var groups []RunGroup
	if candRuns > 1 {
		groups = append(groups, RunGroup{Means: []float64{0.70, 0.72, 0.74}})
	}
	return measureObs(t, &fit, obs, groups...)
}

// measureObs measures the observations against the prior fitted in fit, with the
// groups of runs given.
func measureObs(t *testing.T, fit *PriorFit, obs []Observation, groups ...RunGroup) EvidenceResult {
	t.Helper()
	acc := NewEvidenceAccumulator(fit.Prior(), 5)
	for _, o := range obs {
		acc.Add(o)
	}
	acc.RunGroups(groups...)
	r, err := acc.Result()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// One candidate run on a bad day (8 % of the items fail outright) that also broke 8
// stable items, a 10-pt drop in all, beside a baseline whose three runs show
// item-level noise only: the items reject "no drop" (p = 0.027 at this seed), but an
// outage as large as 2 degrees of freedom allow at 95 % explains it, so PThin is over
// the 5 % level. A run that broke 100 of the 140 stable items is beyond any such run:
// PThin under 5 %. With the candidate's runs in a group of their own (4 degrees of
// freedom), the first look is not thin.
func TestThinRunsLeaveABadRunToARerun(t *testing.T) {
	r := thinSuite(t, 0.08, 8, 1, false)
	if r.PValue >= 0.05 || r.PThin < 0.05 {
		t.Errorf("a bad day: p %v, PThin %v; want p < 0.05 and PThin ≥ 0.05", r.PValue, r.PThin)
	}
	if r := thinSuite(t, 0, 100, 1, false); r.PThin <= 0 || r.PThin >= 0.05 {
		t.Errorf("100 stable items broken: PThin %v; want in (0, 0.05)", r.PThin)
	}
	if r := thinSuite(t, 0.08, 8, 3, false); r.DF < SharedDF || r.PThin != 0 {
		t.Errorf("three candidate runs: df %v, PThin %v; want df ≥ %d and no thin look", r.DF, r.PThin, SharedDF)
	}
}

// After a re-run the bound stays on the evidence test. A candidate run on a bad day
// (15 % of the items fail outright: a 15-pt drop beside a baseline whose three runs
// show item-level noise only) whose failed items pass again when re-run: the look's
// p-value, the doubled smaller of the evidence test's (which averages the one run's
// outage into the items' means) and the replication test's, is under 5 % (0.032 at
// this seed: a block without the bound), but with the evidence test's run-level
// variance at the thin bound and the replication test finding nothing (p = 1), PThin
// stays over 5 % (0.28): no block. A break of 30 stable items, failing again when
// re-run, blocks: PThin under 5 % (0.011, the doubled replication p).
func TestThinBoundStaysAfterARerun(t *testing.T) {
	bad := thinSuite(t, 0.15, 0, 1, true)
	if bad.Replication == nil || bad.PValue >= 0.05 || bad.PThin < 0.05 {
		t.Errorf("a bad day re-run: replication %v, p %v, PThin %v; want a replication, p < 0.05, PThin ≥ 0.05",
			bad.Replication != nil, bad.PValue, bad.PThin)
	}
	brk := thinSuite(t, 0, 30, 1, true)
	if brk.Replication == nil || brk.PThin <= 0 || brk.PThin >= 0.05 {
		t.Errorf("30 stable items broken and re-run: PThin %v; want in (0, 0.05)", brk.PThin)
	}
}
