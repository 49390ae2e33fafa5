package stats

import "testing"

// flakySuite is a 200-item pass/fail suite with 3 baseline and 3 candidate runs: 150
// items passed 3/3 and 20 failed 0/3 in the baseline; 30 flaky ones split 4, 11, 11, 4
// over 0/3, 1/3, 2/3 and 3/3 (what 30 coins at p = 0.5 give on average). cand returns
// the candidate's passes (of 3) for item i given its baseline's.
func flakySuite(t *testing.T, cand func(i, base int) int) EvidenceResult {
	t.Helper()
	var base []int
	for range 150 {
		base = append(base, 3)
	}
	for range 20 {
		base = append(base, 0)
	}
	for k, c := range []int{4, 11, 11, 4} {
		for range c {
			base = append(base, k)
		}
	}
	var obs []Observation
	var vars []float64
	for i, b := range base {
		m := float64(b) / 3
		obs = append(obs, Observation{Index: i, BaseMean: m, BaseRuns: 3, CandMean: float64(cand(i, b)) / 3, CandRuns: 3})
		vars = append(vars, m*(1-m)*3/2) // sample variance of 0/1 scores
	}
	r, err := MeasureEvidence(obs, vars, 10)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A drop that lands on flaky items only: the 26 flaky items that passed 1, 2 or 3 of 3
// baseline runs now pass one run fewer (26 of their 90 candidate runs fail more: 26/3
// items' worth, a drop of 8.67/200 = 4.3 pts). No stable item moves. The estimate is the
// prediction error, unbiased whatever items the change lands on: 4.3 pts up to the
// posterior means' shrinkage of the flaky items toward the suite (within 1 pt). The
// precision-weighted statistic barely counts flaky items; the unweighted one is the
// estimate over its standard error (about √(30·0.16)/200 ≈ 1.1 pts, so z ≈ 4): the
// decision's p is well under 0.05.
func TestEvidenceFlakyDrop(t *testing.T) {
	r := flakySuite(t, func(i, b int) int {
		if i >= 170 && b > 0 {
			return b - 1
		}
		return b
	})
	t.Logf("drop %.2f pts, z %.2f, z_u %.2f, p_u %.3g, p %.3g", 100*r.Drop, r.Z, r.ZU, r.PU, r.PValue)
	if r.Drop < 0.033 || r.Drop > 0.053 {
		t.Errorf("estimated drop %.2f pts; want 4.3 within 1 pt", 100*r.Drop)
	}
	if r.ZU < 3 || r.PValue > 0.01 {
		t.Errorf("unweighted z %.2f, p %.3g; want z > 3 and p < 0.01", r.ZU, r.PValue)
	}
	if r.Z > r.ZU {
		t.Errorf("weighted z %.2f > unweighted %.2f: the weighted statistic should count flaky items less", r.Z, r.ZU)
	}
}

// Nothing changed: each item's candidate passes as often as its baseline did. Both
// statistics sit near 0 (the items' posterior means are pulled toward the suite, so not
// exactly) and the test does not reject.
func TestEvidenceFlakyNoChange(t *testing.T) {
	r := flakySuite(t, func(_, b int) int { return b })
	if r.PValue < 0.2 || r.Drop > 0.01 || r.Drop < -0.01 {
		t.Errorf("no change: drop %.2f pts, p %.3g; want |drop| < 1 pt and p > 0.2", 100*r.Drop, r.PValue)
	}
}
