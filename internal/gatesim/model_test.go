package gatesim

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
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

// A re-run batch draws one run of each named item with one fresh run-level effect: in
// model E with every item stable-pass, a batch's items fail together or not at all
// only through that shared effect, so two batches of the same items differ, and the
// items not named get no new score.
func TestRerunDrawsOneBatch(t *testing.T) {
	p := draw(Cell{Model: ModelE, Shape: ShapeBreak, Items: 50, CandRuns: 1}, 7)
	p.rerun([]int{3, 4})
	p.rerun([]int{4})
	for i, scores := range p.cand {
		want := 1
		switch i {
		case 3:
			want = 2
		case 4:
			want = 3
		}
		if len(scores) != want {
			t.Errorf("item %d has %d candidate scores; want %d", i, len(scores), want)
		}
	}
}

// Settling a pull request whose 8-item all-pass baseline (3 runs) meets one broken
// item: the first look is inconclusive (the newcomer's case, p ≈ 0.17), settle re-runs the item, it fails again, and the decision blocks
// after one round of one item-run.
func TestSettleTrialResolvesTheNewcomer(t *testing.T) {
	cell := Cell{Model: ModelP, Shape: ShapeBreak, Items: 8, CandRuns: 1}
	p := draw(cell, 1)
	p.candItems[5].p = 0 // item 5 breaks deterministically
	p.cand[5] = []float64{0}
	first, err := compare(p.base, p.cand, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	md := MaxDrop
	rg := gate.DefaultRegression()
	rg.MaxDrop, rg.Method = &md, gate.MethodEvidence
	if d := rg.Decide(first); d.Outcome != gate.Inconclusive {
		t.Fatalf("first look %s (%s); want inconclusive", d.Outcome, d.DecidedBy)
	}
	st, extra, d, err := settleTrial(p)
	if err != nil {
		t.Fatal(err)
	}
	if st != gate.Fail || extra < 1 || len(p.cand[5]) < 2 {
		t.Errorf("settled %s with %d extra item-runs (item 5 has %d scores): %s; want a fail after ≥ 1 re-run", st, extra, len(p.cand[5]), d.DecidedBy)
	}
}

// A cell with a history draws its pull request exactly as without one (the releases
// are drawn after it), and each earlier release is BaselineRuns run means of the
// baseline's system: in model P (every item passes every run) each mean is exactly 1.
// Under model R the releases' means spread (a logit shift moves the flaky items), and
// the comparison pools them: the run-level noise has 2 (baseline) + 2 (candidate's 3
// runs) + 2·History degrees of freedom.
func TestHistoryReleases(t *testing.T) {
	cell := Cell{Model: ModelP, Shape: ShapeBreak, Items: 20, CandRuns: 1}
	plain := draw(cell, 3)
	cell.History = 2
	hist := draw(cell, 3)
	if !reflect.DeepEqual(plain.base, hist.base) || !reflect.DeepEqual(plain.cand, hist.cand) {
		t.Fatal("a history changed the pull request's draws")
	}
	if len(hist.history) != 2 {
		t.Fatalf("%d releases; want 2", len(hist.history))
	}
	for _, g := range hist.history {
		if len(g.Means) != BaselineRuns || g.Means[0] != 1 || g.Means[1] != 1 || g.Means[2] != 1 {
			t.Errorf("release %s: means %v; want %d means of 1", g.Source, g.Means, BaselineRuns)
		}
	}
	r := Cell{Model: ModelR, Shape: ShapeBreak, Items: 200, CandRuns: 3, History: HistoryReleases}
	p := draw(r, 1)
	cmp, err := compare(p.base, p.cand, r.CandRuns, nil, p.history...)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 + 2 + 2*HistoryReleases; cmp.Evidence.RunNoise.DF != want {
		t.Errorf("run-level df %d; want %d", cmp.Evidence.RunNoise.DF, want)
	}
}

// Settle's estimate is unbiased on a drop spread over the flaky items. Re-running the
// flaky items that failed and averaging their re-runs in would retry every unlucky
// failure while every lucky pass stands: the mean estimate fell 0.70 pts short of a
// 4-pt drop over 400 trials (model A, one run, settle). Now a flaky item is re-run only
// as a noisy item, chosen by the baseline alone, and an item chosen by how it scored is
// read by its full runs. Over 200 trials the mean error's standard error is about
// 0.1 pts; 0.3 pts is three of them, and the old bias seven.
func TestSettleEstimateIsUnbiasedOnAFlakyDrop(t *testing.T) {
	cell := Cell{Model: ModelA, Shape: ShapeFlaky, Items: 200, CandRuns: 1, Drop: 0.04, Settle: true}
	const trials = 200
	var sum float64
	for tr := 1; tr <= trials; tr++ {
		_, _, d, err := settleTrial(draw(cell, uint64(tr)))
		if err != nil {
			t.Fatal(err)
		}
		sum += d.Value - cell.Drop
	}
	if bias := sum / trials; math.Abs(bias) > 0.003 {
		t.Errorf("mean estimate − true drop %.2f pts over %d trials; want within ±0.30 pts", 100*bias, trials)
	}
}
