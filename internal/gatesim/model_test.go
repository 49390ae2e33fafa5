package gatesim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every shape takes exactly the asked drop off the suite's expected mean: the mean of
// the items' expected scores before, minus after.
func TestShapesDropExactly(t *testing.T) {
	expected := func(shape Shape, it item) float64 {
		if shape == ShapeDrift {
			return 0.5*it.notch[1] + it.notch[2]
		}
		return it.p
	}
	for _, m := range []Model{ModelA, ModelB} {
		for _, sh := range []Shape{ShapeBreak, ShapeUniform, ShapeDrift} {
			for _, n := range []int{50, 200, 1000} {
				for _, d := range []float64{0, 0.02, 0.04, 0.08} {
					base, cand := suite(m, sh, n, d, rand.New(rand.NewPCG(1, 2)))
					var sb, sc float64
					for i := range base {
						sb += expected(sh, base[i])
						sc += expected(sh, cand[i])
					}
					if got := (sb - sc) / float64(n); math.Abs(got-d) > 1e-9 {
						t.Errorf("model %s, %s, n %d: drop %v; want %v", m.Name, sh, n, got, d)
					}
				}
			}
		}
	}
}

// The models' item kinds: 15 % flaky at 0.5, 10 % stable-fail, the rest stable-pass.
func TestModelShares(t *testing.T) {
	base, _ := suite(ModelB, ShapeBreak, 200, 0, rand.New(rand.NewPCG(1, 2)))
	count := map[float64]int{}
	for _, it := range base {
		count[it.p]++
	}
	// round(0.15·200) = 30 flaky, round(0.10·200) = 20 at 0.03, 150 at 0.97.
	if count[0.5] != 30 || count[1-ModelB.Stable] != 20 || count[0.97] != 150 {
		t.Errorf("item kinds %v; want 30 at 0.5, 20 at 0.03, 150 at 0.97", count)
	}
}
