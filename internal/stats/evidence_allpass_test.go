package stats

import (
	"math"
	"testing"
)

// allSame measures n items whose baseline runs and candidate runs all scored base and
// cand (0 or 1), with broken of them scoring 1 − cand instead.
func allSame(t *testing.T, n, baseRuns, candRuns int, base float64, broken int) EvidenceResult {
	t.Helper()
	obs := make([]Observation, n)
	vars := make([]float64, n)
	for i := range obs {
		c := base
		if i < broken {
			c = 1 - base
		}
		obs[i] = Observation{Index: i, BaseMean: base, BaseRuns: baseRuns, CandMean: c, CandRuns: candRuns}
	}
	r, err := MeasureEvidence(obs, vars, 0)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// An all-pass (or all-fail) suite that did not change is estimated at no drop: within
// 0.1 pts at 200 items or more, for 1 and 3 candidate runs. The grid that stops at 0.995
// read every 3/3 item as 0.995 and estimated −0.5 pts. The bound: the estimate's prior
// puts (n + s)/(n + 1) of its weight on the end value 0.99995 (s = 0.01, the smoothing
// the end value keeps for itself) and 0.01/(n + 1) on each other grid value; an item's
// predicted shortfall 1 − E[p | 3/3] is then at most 0.00005 + Σ_g 0.01/(n+1)·q³(1 − q)
// over the grid ≈ 0.00005 + 0.01/201 · 100 · 0.05 ≈ 0.0003 at n = 200, i.e. 0.03 pts.
func TestEvidenceAllPassUnbiased(t *testing.T) {
	for _, n := range []int{200, 1000} {
		for _, m := range []int{1, 3} {
			for _, base := range []float64{1, 0} {
				r := allSame(t, n, 3, m, base, 0)
				if math.Abs(r.Drop) > 0.001 {
					t.Errorf("n %d, %d run(s), every score %v: estimated drop %.2f pts; want |drop| ≤ 0.1 pts", n, m, base, 100*r.Drop)
				}
			}
		}
	}
}

// All-pass, 1,000 items, 1 run: 25 items broken (a true drop of 2.5 pts) is estimated at
// 2.5 pts (over max_drop 2.0) and the test rejects "no drop"; the 0.995 grid estimated
// it at about 2.0 pts, which did not exceed max_drop.
func TestEvidenceAllPassDetects(t *testing.T) {
	r := allSame(t, 1000, 3, 1, 1, 25)
	if r.Drop < 0.024 || r.Drop > 0.0251 {
		t.Errorf("estimated drop %.3f pts; want 2.5 (25 of 1,000 items broken)", 100*r.Drop)
	}
	if r.PValue >= 0.05 {
		t.Errorf("p = %v; want < 0.05", r.PValue)
	}
}
