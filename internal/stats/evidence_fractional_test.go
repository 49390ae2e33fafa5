package stats

import (
	"math"
	"testing"
)

// A judged suite whose runs never vary: 30 items, three identical baseline runs, 15
// items scoring 0.75 every run and 15 scoring 1.0; the candidate's one run drops the
// 0.75 items to 0.5 (a 12.5-pt drop of the suite's mean). This was inconclusive with
// "interval 10.2 to 15.1 pts, p = 0.3" when the test was the weighted statistic alone.
//
// Why the weighted statistic misses it. The runs never varied, so Σ(sample variance) =
// 0 and λ is floored at MinLambda = 0.05. The posterior means sit near the items' own
// means (0.75; 0.995, the test grid's end, for the 1.0 items), so with V = λ·E[p(1−p)]:
//
//	0.75 items: V ≈ 0.05·0.1875 = 0.009375, w = 1/V ≈ 106.7, e = 0.25,   w·e ≈ +26.7
//	1.0 items:  V ≈ 0.05·0.005  = 0.00025,  w = 1/V ≈ 4000,  e ≈ −0.005, w·e ≈ −20
//
// (an item at its ceiling always gives w·e = −(1 − μ̂)/(λ·μ̂(1 − μ̂)) = −1/(λ·μ̂), whatever
// the grid's end). Z_w = 15·(26.7 − 20)/√(15·(106.7 + 4000)) ≈ 100/248 ≈ 0.40: the
// precise ceiling items outweigh the drop, p_w ≈ 0.3. The unweighted statistic weighs
// every item alike: Σe ≈ 15·0.25 − 15·0.005 = 3.675, √ΣV ≈ √(15·0.009625) = 0.380,
// Z_u ≈ 9.7, p_u ≈ 0, so the combined p = min(p_w/0.8, p_u/0.2) ≈ 0 and the drop blocks.
// The estimated drop is ≈ 0.125 with SE ≈ 0.380/30 = 0.0127.
func TestEvidenceFractionalIdenticalRunsDrop(t *testing.T) {
	var obs []Observation
	var vars []float64
	for i := range 30 {
		b, c := 1.0, 1.0
		if i%2 == 0 {
			b, c = 0.75, 0.5
		}
		obs = append(obs, Observation{Index: i, BaseMean: b, BaseRuns: 3, CandMean: c, CandRuns: 1})
		vars = append(vars, 0)
	}
	r, err := MeasureEvidence(obs, vars, 5)
	if err != nil {
		t.Fatal(err)
	}
	if r.Prior.Lambda != MinLambda {
		t.Errorf("λ %v; want MinLambda %v (the runs never varied)", r.Prior.Lambda, MinLambda)
	}
	if math.Abs(r.Z-0.40) > 0.1 || r.PW < 0.2 {
		t.Errorf("weighted Z %.3f, p_w %.3f; want ≈ 0.40 and p_w ≈ 0.3 (the ceiling items outweigh the drop)", r.Z, r.PW)
	}
	if math.Abs(r.ZU-9.7) > 0.3 {
		t.Errorf("unweighted Z %.3f; want ≈ 9.7", r.ZU)
	}
	if math.Abs(r.Drop-0.125) > 0.003 || math.Abs(r.SE-0.0127) > 0.0005 {
		t.Errorf("drop %.4f ± %.4f; want ≈ 0.125 ± 0.0127", r.Drop, r.SE)
	}
	if r.PValue >= 1e-6 {
		t.Errorf("p %.3g; want ≈ 0 (the unweighted statistic finds the drop)", r.PValue)
	}
	if lo := r.Drop - r.HalfWidth95(); lo < 0.095 {
		t.Errorf("interval's lower end %.4f; want ≈ 0.125 − 1.96·0.0127 = 0.100", lo)
	}
}
