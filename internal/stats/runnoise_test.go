package stats

import (
	"math"
	"testing"
)

// Student's t against table values: the 95 % one-sided quantile is 2.920 at 2 degrees
// of freedom, 2.132 at 4 and 1.645 (the normal's) at infinity; t(1) is Cauchy, whose
// distribution function at 1 is 3/4. χ²'s 90 % quantiles are 4.605 (2 df) and 6.251
// (3 df); Wilson–Hilferty is within 1 %.
func TestStudentAndChiSquare(t *testing.T) {
	for _, c := range []struct{ q, nu, want float64 }{{2.919986, 2, 0.95}, {2.131847, 4, 0.95}, {1.644854, math.Inf(1), 0.95}, {1, 1, 0.75}, {-1, 1, 0.25}, {0, 3, 0.5}} {
		if got := StudentCDF(c.q, c.nu); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("StudentCDF(%v, %v) = %v; want %v", c.q, c.nu, got, c.want)
		}
	}
	if q := StudentQuantile(0.975, 2); math.Abs(q-4.302653) > 1e-5 {
		t.Errorf("StudentQuantile(0.975, 2) = %v; want 4.3027", q)
	}
	for _, c := range []struct{ k, want float64 }{{2, 4.605}, {3, 6.251}} {
		if got := chiSquareQuantile(0.9, c.k); math.Abs(got-c.want)/c.want > 0.01 {
			t.Errorf("χ² 90 %% quantile at %v df = %v; want %v within 1 %%", c.k, got, c.want)
		}
	}
}

// Three items of weight 1 that all fail the third of 3 runs together: each item's
// deviations from its mean 2/3 are (1/3, 1/3, −2/3), its sample variance (1/9 + 1/9 +
// 4/9)/2 = 1/3. The runs' sums deviate by (1, 1, −2): Σ over runs of their squares is
// 6, where item-level noise predicts 2 × Σs² = 2. So τ̂² of the sum = (6 − 2)/2 = 2, of
// the mean 2/3² = 0.2222, and the pretest's χ² = 6/1 = 6 > 4.605 (2 df, 90 %): counted.
// Two such items give Σ T² = 8/3 against 2·(2/3): χ² = 4 < 4.605, not counted.
func TestRunSumsTogether(t *testing.T) {
	var s runSums
	for range 3 {
		s.add(1, 1.0/3, 0b011, 3, true)
	}
	rn := s.measure(nil, 3)
	if math.Abs(rn.Variance-2.0/9) > 1e-12 || rn.DF != 2 || !rn.Counted || math.Abs(rn.Weighted-2) > 1e-12 || !rn.WeightedCounted {
		t.Errorf("three items: %+v; want variance 2/9, weighted 2, 2 df, counted", rn)
	}
	var two runSums
	for range 2 {
		two.add(1, 1.0/3, 0b011, 3, true)
	}
	if rn := two.measure(nil, 2); rn.Counted || math.Abs(rn.Variance-(8.0/3-4.0/3)/2/4) > 1e-12 {
		t.Errorf("two items: %+v; want variance (8/3 − 4/3)/2/2² = 1/6, not counted", rn)
	}
}

// Items that fail in different runs are item-level noise: deviations (2/3, −1/3, −1/3)
// and (−1/3, 2/3, −1/3) and (−1/3, −1/3, 2/3) cancel in every run's sum, so τ̂² = 0.
func TestRunSumsApart(t *testing.T) {
	var s runSums
	for _, b := range []uint64{0b001, 0b010, 0b100} {
		s.add(1, 1.0/3, b, 3, true)
	}
	if rn := s.measure(nil, 3); rn.Variance != 0 || rn.Counted {
		t.Errorf("%+v; want no run-level variance", rn)
	}
}

// Groups known by their run means: 100 items with Σs² = 25 (a run mean's item-level
// variance 25/100² = 0.0025, a 5-pt std), and a history release whose 5 runs' means
// have a std of 0.10 (variance 0.01 of the mean, 100 of the sum). τ̂² of the sum is
// (100 − 25) = 75 on 4 df, of the mean 0.0075; χ² = 4 × 100/25 = 16 > 7.78 (4 df, 90 %):
// counted. The baseline's own group is skipped when its per-run scores were counted.
func TestRunSumsGroups(t *testing.T) {
	var s runSums
	for range 100 {
		s.add(2, 0.25, 0, 1, false) // one baseline run: no per-run scores
	}
	rn := s.measure([]RunGroup{{Std: 0.10, Runs: 5, Source: "abc"}}, 100)
	if math.Abs(rn.Variance-0.0075) > 1e-12 || rn.DF != 4 || !rn.Counted {
		t.Errorf("%+v; want variance 0.0075 on 4 df, counted", rn)
	}
	// Translated to the weighted sum by ρ = Σw²s²/Σs² = 4: τ̂²_w = 4 × 75 = 300.
	if math.Abs(rn.Weighted-300) > 1e-9 {
		t.Errorf("weighted %v; want 300", rn.Weighted)
	}
}

// The statistic with a counted run-level part: item part a = 10,000, run part b =
// 120,000 on 2 df. z = sum/√130,000; ν = 130,000²/(120,000²/2) = 2.347, so a sum of
// 500 (z = 1.387) is far from significant: p = 1 − T_2.347(1.387) ≈ 0.15.
func TestWithRunNoise(t *testing.T) {
	z, p := withRunNoise(500, 10000, 120000, 2, 0)
	if math.Abs(z-500/math.Sqrt(130000)) > 1e-12 {
		t.Errorf("z %v; want %v", z, 500/math.Sqrt(130000))
	}
	nu := 130000.0 * 130000 / (120000.0 * 120000 / 2)
	if want := 1 - StudentCDF(z, nu); math.Abs(p-want) > 1e-12 || p < 0.1 || p > 0.2 {
		t.Errorf("p %v; want %v (about 0.15)", p, want)
	}
}
