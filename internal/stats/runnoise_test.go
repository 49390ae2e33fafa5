package stats

import (
	"math"
	"testing"
)

// Student's t against table values: the 95 % one-sided quantile is 2.920 at 2 degrees
// of freedom, 2.132 at 4 and 1.645 (the normal's) at infinity; t(1) is Cauchy, whose
// distribution function at 1 is 3/4.
func TestStudent(t *testing.T) {
	for _, c := range []struct{ q, nu, want float64 }{{2.919986, 2, 0.95}, {2.131847, 4, 0.95}, {1.644854, math.Inf(1), 0.95}, {1, 1, 0.75}, {-1, 1, 0.25}, {0, 3, 0.5}} {
		if got := StudentCDF(c.q, c.nu); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("StudentCDF(%v, %v) = %v; want %v", c.q, c.nu, got, c.want)
		}
	}
	if q := StudentQuantile(0.975, 2); math.Abs(q-4.302653) > 1e-5 {
		t.Errorf("StudentQuantile(0.975, 2) = %v; want 4.3027", q)
	}
}

// Three items of weight 1 that all fail the third of 3 runs together: each item's
// deviations from its mean 2/3 are (1/3, 1/3, −2/3), its sample variance (1/9 + 1/9 +
// 4/9)/2 = 1/3. The runs' sums deviate by (1, 1, −2): Σ over runs of their squares is
// 6, where item-level noise predicts 2 × Σs² = 2. So τ̂² of the sum = (6 − 2)/2 = 2, of
// the mean 2/3² = 0.2222. Two such items give Σ T² = 8/3 against 2·(2/3): τ̂² of the
// sum (8/3 − 4/3)/2 = 2/3, of the mean 1/6.
func TestRunSumsTogether(t *testing.T) {
	var s runSums
	for range 3 {
		s.add(1, 1.0/3, 0b011, 3, true)
	}
	rn := s.measure(nil, 3, nil, 0)
	if math.Abs(rn.Variance-2.0/9) > 1e-12 || rn.DF != 2 || math.Abs(rn.Weighted-2) > 1e-12 || rn.WeightedDF != 2 || rn.Still {
		t.Errorf("three items: %+v; want variance 2/9, weighted 2, 2 df each, not still", rn)
	}
	var two runSums
	for range 2 {
		two.add(1, 1.0/3, 0b011, 3, true)
	}
	if rn := two.measure(nil, 2, nil, 0); math.Abs(rn.Variance-(8.0/3-4.0/3)/2/4) > 1e-12 {
		t.Errorf("two items: %+v; want variance (8/3 − 4/3)/2/2² = 1/6", rn)
	}
}

// Items that fail in different runs are item-level noise: deviations (2/3, −1/3, −1/3)
// and (−1/3, 2/3, −1/3) and (−1/3, −1/3, 2/3) cancel in every run's sum, so τ̂² = 0.
func TestRunSumsApart(t *testing.T) {
	var s runSums
	for _, b := range []uint64{0b001, 0b010, 0b100} {
		s.add(1, 1.0/3, b, 3, true)
	}
	if rn := s.measure(nil, 3, nil, 0); rn.Variance != 0 || rn.Still {
		t.Errorf("%+v; want no run-level variance, not still (the items varied)", rn)
	}
}

// Identical runs (every item passed all 3): Σs² = 0 and the sums never move, so the
// runs show no noise at all: Still, and the guard stays off. A candidate group whose 3
// run means spread (std 0.05 at 3 items: a sum's variance 0.0025 × 9 = 0.0225 > Σs² =
// 0) makes τ̂² > 0: not still, and the weighted component keeps the baseline's 2 df.
func TestRunSumsStill(t *testing.T) {
	var s runSums
	for range 3 {
		s.add(1, 0, 0b111, 3, true)
	}
	if rn := s.measure(nil, 3, nil, 0); !rn.Still || rn.Variance != 0 || rn.DF != 2 {
		t.Errorf("%+v; want still, no variance, 2 df", rn)
	}
	rn := s.measure([]RunGroup{{Means: []float64{0.95, 1, 1.05}}}, 3, nil, 0)
	if rn.Still || math.Abs(rn.Variance-0.0225*2/4/9) > 1e-12 || rn.DF != 4 || rn.WeightedDF != 2 {
		t.Errorf("%+v; want not still, variance 2·0.0225/4/9, 4 df, weighted 2 df", rn)
	}
}

// Groups known by their run means: 100 items with Σs² = 25 (a run mean's item-level
// variance 25/100² = 0.0025, a 5-pt std), and a history release whose 5 runs' means
// have a std of 0.10 (variance 0.01 of the mean, 100 of the sum). τ̂² of the sum is
// (100 − 25) = 75 on 4 df, of the mean 0.0075. The baseline's own group is skipped when its per-run scores were counted.
func TestRunSumsGroups(t *testing.T) {
	var s runSums
	for range 100 {
		s.add(2, 0.25, 0, 1, false) // one baseline run: no per-run scores
	}
	rn := s.measure([]RunGroup{{Std: 0.10, Runs: 5, Source: "abc"}}, 100, nil, 0)
	if math.Abs(rn.Variance-0.0075) > 1e-12 || rn.DF != 4 {
		t.Errorf("%+v; want variance 0.0075 on 4 df", rn)
	}
	// Translated to the weighted sum by ρ = Σw²s²/Σs² = 4: τ̂²_w = 4 × 75 = 300.
	if math.Abs(rn.Weighted-300) > 1e-9 {
		t.Errorf("weighted %v; want 300", rn.Weighted)
	}
	// A run-level shape that carries more to the weighted sum than the items' observed
	// spread says (stable items that never varied in the baseline's runs move together
	// under an outage or a drifting judge) sets the carry when larger: 9 × 75 = 675. A
	// smaller one leaves ρ = 4.
	if rn := s.measure([]RunGroup{{Std: 0.10, Runs: 5, Source: "abc"}}, 100, nil, 9); math.Abs(rn.Weighted-675) > 1e-9 {
		t.Errorf("shape scale 9: weighted %v; want 675", rn.Weighted)
	}
	if rn := s.measure([]RunGroup{{Std: 0.10, Runs: 5, Source: "abc"}}, 100, nil, 2); math.Abs(rn.Weighted-300) > 1e-9 {
		t.Errorf("shape scale 2: weighted %v; want 300", rn.Weighted)
	}
}

// The shapes' scales by hand, on the accumulator's sums: Σw·pq = 30 over Σpq = 5 is a
// tipping scale of (30/5)² = 36; Σw·p̂ = 400 over Σp̂ = 50 an outage scale of 8² = 64;
// with nothing that varies, 0.
func TestShapeScales(t *testing.T) {
	a := EvidenceAccumulator{sumWPQ: 30, sumPQ: 5, sumWP: 400, sumP: 50}
	if got := a.tippingScale(); math.Abs(got-36) > 1e-12 {
		t.Errorf("tipping scale %v; want 36", got)
	}
	if got := a.outageScale(); math.Abs(got-64) > 1e-12 {
		t.Errorf("outage scale %v; want 64", got)
	}
	var none EvidenceAccumulator
	if none.tippingScale() != 0 || none.outageScale() != 0 {
		t.Error("an empty accumulator's scales; want 0")
	}
}

// The guard: item part a = 10,000, run part b = 120,000 on 2 df. z = 500/
// √130,000 = 1.3868; t with 2 df has the closed form T₂(t) = 1/2 + t/(2√(2 + t²)), so
// p = 1/2 − 1.3868/(2√(2 + 1.9231)) = 1/2 − 1.3868/3.9610 = 0.1499. With no run part
// (b = 0, the runs agreed) the variance is the item part alone and the reference is
// still t₂: z = 500/100 = 5, p = 1/2 − 5/(2√27) = 1/2 − 0.48113 = 0.01887 (the normal
// would say 2.9e-7).
func TestRunGuard(t *testing.T) {
	z := 500 / math.Sqrt(130000)
	want := 0.5 - z/(2*math.Sqrt(2+z*z))
	if p := runGuard(500, 10000, 120000, 2, 0); math.Abs(p-want) > 1e-9 || math.Abs(p-0.1499) > 5e-4 {
		t.Errorf("p %v; want %v (0.1499)", p, want)
	}
	if p := runGuard(500, 10000, 0, 2, 0); math.Abs(p-0.01887) > 5e-5 {
		t.Errorf("no run part: p %v; want 0.01887", p)
	}
}

// The candidate's runs measure the weighted component when every item has its per-run
// scores in two or more of them. Baseline: three items of weight 10 passed all 3 runs
// (no deviation), one of weight 1 passed runs 0 and 1 (deviations 1/3, 1/3, −2/3, s² =
// 1/3): Σt² = 1/9 + 1/9 + 4/9 = 2/3 = 2·Σw²s², so τ̂²_w = 0: blind to the stable items.
// Candidate: the three failed run 0 together (an outage), deviations (−2/3, 1/3, 1/3)
// each, so run sums t = (−20, 10, 10), Σt² = 600, Σw²s² = 3·100·(1/3) = 100, and
// τ̂²_w = (600 − 2·100)/2 = 200 on the candidate's 2 df.
func TestRunSumsCandidateWeighted(t *testing.T) {
	var base, cand runSums
	for range 3 {
		base.add(10, 0, 0b111, 3, true)
		cand.add(10, bitsVariance(0b110, 3), 0b110, 3, true)
	}
	base.add(1, 1.0/3, 0b011, 3, true)
	cand.add(1, 0, 0b111, 3, true)
	if rn := base.measure(nil, 4, nil, 0); rn.Weighted != 0 || rn.WeightedDF != 2 {
		t.Errorf("baseline alone: weighted %v on %d df; want 0 on 2", rn.Weighted, rn.WeightedDF)
	}
	if rn := base.measure(nil, 4, &cand, 0); math.Abs(rn.Weighted-200) > 1e-9 || rn.WeightedDF != 2 {
		t.Errorf("with the candidate's runs: weighted %v on %d df; want 200 on 2", rn.Weighted, rn.WeightedDF)
	}
	// One candidate run: nothing to measure, the baseline's reading stands.
	var one runSums
	one.add(10, 0, 0b1, 1, true)
	if rn := base.measure(nil, 4, &one, 0); rn.Weighted != 0 {
		t.Errorf("one candidate run: weighted %v; want the baseline's 0", rn.Weighted)
	}
	if v := bitsVariance(0b110, 3); math.Abs(v-1.0/3) > 1e-12 {
		t.Errorf("bitsVariance(110) = %v; want (2/3)(1/3)(3/2) = 1/3", v)
	}
}

// The unweighted guard's p-value counts GuardFactor = 5/3 times. 100 items at 0.5 over 3
// baseline runs and a history release whose 3 run means spread 6 pts (run-level noise
// well beyond the item-level 2.5 pts of a run mean), and a candidate 8 pts lower over 3
// runs: the items alone reject "no drop" outright, the guard holds it, and the
// unweighted statistic's p-value is 5/3 times its guard's (the weighted one's is its
// guard's). At the default α = 5 % split evenly, the unweighted statistic then needs
// its guard under 2.5 %/(5/3) = 1.5 %.
func TestGuardCountsGuardFactorTimes(t *testing.T) {
	var fit PriorFit
	for range 100 {
		fit.Add(0.5, 0.25*1.5, 3)
	}
	acc := NewEvidenceAccumulator(fit.Prior(), 5)
	acc.RunGroups(RunGroup{Means: []float64{0.44, 0.50, 0.56}, Source: "release-1"})
	for k := range 100 {
		acc.Add(Observation{Index: k, BaseMean: 0.5, BaseRuns: 3, BaseVar: 0.25 * 1.5, CandMean: 0.42, CandRuns: 3})
	}
	r, err := acc.Result()
	if err != nil {
		t.Fatal(err)
	}
	if r.GuardU <= 0 || r.PItem >= r.GuardU {
		t.Fatalf("guard p %v, items' p %v: want the guard to hold back what the items reject", r.GuardU, r.PItem)
	}
	if want := math.Min(1, 5.0/3*r.GuardU); r.PU != want {
		t.Errorf("unweighted p %v; want 5/3 × the guard's %v = %v", r.PU, r.GuardU, want)
	}
	if r.GuardW > r.PItem && r.PW != r.GuardW {
		t.Errorf("weighted p %v; want the guard's %v", r.PW, r.GuardW)
	}
	if want := CombineP(r.PW, r.PU, r.UnweightedShare); r.PValue != want {
		t.Errorf("p %v; want the two combined, %v", r.PValue, want)
	}
}

// With the runs' spread known to 4 degrees of freedom, the unweighted guard reads its
// statistic against that spread as Student's t does, also when the runs agree more
// closely than their items predict. 100 items at 0.5 and a candidate at 0.42 over 3
// runs; the baseline's and the candidate's run means spread 2 pts each ({0.48, 0.50,
// 0.52}: S² of a run's sum 0.0004 × 100² = 4, against the items' Σs² = 100 × 0.25 =
// 25), pooled on 2 + 2 df. The guard's variance is then the larger of a·4/25
// and a + (4 − 25)·(2/3) (spreadVariance), not a, and its p is t₄'s tail there.
func TestGuardReadsTheRunsSpread(t *testing.T) {
	var fit PriorFit
	for range 100 {
		fit.Add(0.5, 0.25, 3)
	}
	acc := NewEvidenceAccumulator(fit.Prior(), 5)
	acc.RunGroups(RunGroup{Means: []float64{0.48, 0.50, 0.52}, Source: "release-1"},
		RunGroup{Means: []float64{0.40, 0.42, 0.44}, Source: "candidate"})
	for k := range 100 {
		acc.Add(Observation{Index: k, BaseMean: 0.5, BaseRuns: 3, BaseVar: 0.25, CandMean: 0.42, CandRuns: 3})
	}
	r, err := acc.Result()
	if err != nil {
		t.Fatal(err)
	}
	if r.DF != 4 || math.Abs(r.RunNoise.SpreadSum-4) > 1e-9 {
		t.Fatalf("df %v, spread %v; want 2 + 2 and 4", r.DF, r.RunNoise.SpreadSum)
	}
	v := math.Max(0.16*acc.sumV, acc.sumV-21*2.0/3)
	if want := runGuard(acc.sumE, v, 0, 4, r.SkewU); math.Abs(r.GuardU-want) > 1e-12 {
		t.Errorf("unweighted guard p %v; want t4's tail at the spread's variance, %v", r.GuardU, want)
	}
	if floored := runGuard(acc.sumE, acc.sumV, 0, 4, r.SkewU); r.GuardU >= floored {
		t.Errorf("guard p %v; want it under the floored reading's %v", r.GuardU, floored)
	}
}

// spreadVariance with W = 30, f = 2/3, 4 df. With a = 40 (the model's variance above
// W·f = 20):
//   - S² = 15: a + (15 − 30)·2/3 = 30 beats a·15/30 = 20;
//   - S² = 60: 40 + 30·2/3 = 60 (a·min(1, 2) = 40);
//   - S² = 0.3: 40 − 29.7·2/3 = 20.2.
//
// With a = 4 (under W·f: the baseline's part shrunk by the prior):
//   - S² = 15: 4 − 10 < 0, so a·15/30 = 2;
//   - S² = 0.3: a·0.01 = 0.04 is under the floor 4·χ²₄(0.01)/4, where χ²₄'s CDF
//     1 − e^(−x/2)(1 + x/2) = 0.01 at x = 0.297109: 0.297109.
func TestSpreadVariance(t *testing.T) {
	for _, c := range []struct{ a, spread, want float64 }{
		{40, 15, 30}, {40, 60, 60}, {40, 0.3, 20.2}, {4, 15, 2}, {4, 0.3, 0.297109},
	} {
		if v := spreadVariance(c.a, 30, c.spread, 2.0/3, 4); math.Abs(v-c.want) > 1e-5 {
			t.Errorf("a %v, spread %v: %v; want %v", c.a, c.spread, v, c.want)
		}
	}
}

// The runs' spread is read against the items' only when SpreadMinItems items varied
// between the baseline's runs: 14 varying items (and 86 that did not) leave SpreadSum
// unmeasured, 15 measure it. Two groups of three runs whose run sums spread by
// 0.0004 × 100² = 4 each pool to S² = 4, plus nothing: SpreadSum is the pooled S²
// itself (the item part is added back to the excess: (4 − W) + W, W = 15 × 0.25).
func TestSpreadNeedsVaryingItems(t *testing.T) {
	for _, c := range []struct {
		varying int
		want    float64
	}{{14, 0}, {15, 4}} {
		var s runSums
		for k := range 100 {
			v := 0.0
			if k < c.varying {
				v = 0.25
			}
			s.add(1, v, 0, 3, false)
		}
		groups := []RunGroup{{Means: []float64{0.48, 0.50, 0.52}}, {Means: []float64{0.40, 0.42, 0.44}}}
		if rn := s.measure(groups, 100, nil, 0); math.Abs(rn.SpreadSum-c.want) > 1e-9 {
			t.Errorf("%d varying items: spread %v; want %v", c.varying, rn.SpreadSum, c.want)
		}
	}
}
