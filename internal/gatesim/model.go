// Package gatesim is the simulation behind docs/gate-trust.md: how often the regression
// gate blocks a pull request that changed nothing, and how often it catches a real drop,
// for each decision method, suite size and number of candidate runs.
//
// Every simulated pull request goes through the functions `evalgate check` and
// `evalgate compare` decide with: the per-item baseline and candidate figures are
// measured by baseline.CompareSnapshotsWith (the comparison `evalgate compare` makes,
// and the same measurements `evalgate check` makes after scoring) and decided by
// gate.Regression.Decide. Only the scoring is skipped: the simulation draws item scores
// directly, as a rubric would produce them. TestSimulationMatchesCheck holds that the
// check path, scoring real results files, decides the same.
package gatesim

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Model is a noise model of a suite: what each item's score does from run to run.
type Model struct {
	// Name is A, B, R, E or P.
	Name string
	// Stable is the per-run pass probability of a stable-pass item (1 for model A,
	// 0.97 for B); a stable-fail item passes with 1 − Stable.
	Stable float64
	// AllPass: every item is stable-pass (no flaky or stable-fail items).
	AllPass bool
	// RunLogitSD is run-level noise on the logit scale: each run draws a shift η ~
	// N(0, RunLogitSD²) and every item's pass probability p becomes
	// 1/(1 + e^−(logit p + η)) in that run (a bad day makes borderline items fail;
	// items at exactly 0 or 1 do not move).
	RunLogitSD float64
	// RunFailMax is run-level noise that hits every item: each run draws ε uniform in
	// [0, RunFailMax] and every item fails in it with extra probability ε (rate limits,
	// an outage: stable items fail too).
	RunFailMax float64
}

// The noise models: 15 % of items flaky at p = 0.5, the rest stable at exactly 1 or 0
// (A), or at 0.97 or 0.03 (B); A with run-level noise on the logit scale (R) or with
// runs that fail items at random (E), both with a run-to-run std of the suite mean of
// about 3 pts at 200 items; and an all-pass suite (P).
var (
	ModelA = Model{Name: "A", Stable: 1}
	ModelB = Model{Name: "B", Stable: 0.97}
	ModelR = Model{Name: "R", Stable: 0.99, RunLogitSD: 0.6}
	ModelE = Model{Name: "E", Stable: 1, RunFailMax: 0.12}
	ModelP = Model{Name: "P", Stable: 1, AllPass: true}
)

// runEffect is one run's run-level noise.
type runEffect struct{ eta, fail float64 }

// runEffect draws one run's run-level noise.
func (m Model) runEffect(rng *rand.Rand) runEffect {
	var e runEffect
	if m.RunLogitSD > 0 {
		e.eta = m.RunLogitSD * rng.NormFloat64()
	}
	if m.RunFailMax > 0 {
		e.fail = m.RunFailMax * rng.Float64()
	}
	return e
}

// apply is an item's pass probability p in a run with this noise.
func (e runEffect) apply(p float64) float64 {
	if e.eta != 0 && p > 0 && p < 1 {
		p = 1 / (1 + math.Exp(-(math.Log(p/(1-p)) + e.eta)))
	}
	return p * (1 - e.fail)
}

// Shares of the item kinds.
const (
	FlakyShare      = 0.15
	StableFailShare = 0.10
	FlakyP          = 0.5
)

// Shape is how a real regression hurts the suite.
type Shape string

// The three regression shapes.
const (
	// ShapeBreak: stable-pass items break (they pass as often as stable-fail items).
	ShapeBreak Shape = "stable items break"
	// ShapeUniform: every item's pass probability drops a little.
	ShapeUniform Shape = "uniform drop"
	// ShapeDrift: graded 0–2 scores (0, 0.5, 1 once normalized) drift down a notch.
	ShapeDrift Shape = "graded drift"
	// ShapeFlaky: only the flaky items get worse (their pass probability falls by the
	// same amount); no stable item breaks. A prompt change that makes borderline cases
	// worse.
	ShapeFlaky Shape = "flaky items drop"
)

// item is one simulated item: for pass/fail shapes its per-run pass probability; for the
// graded shape the probability of each notch (0, 0.5, 1).
type item struct {
	p     float64    // pass/fail: P(score 1)
	notch [3]float64 // graded: P(0), P(0.5), P(1)
}

// suite returns the baseline's and the candidate's items for a model, shape and true
// drop (a fraction of the 0–1 score: 0.04 = 4 pts). The drop is exact in expectation.
func suite(m Model, shape Shape, n int, drop float64, rng *rand.Rand) (base, cand []item) {
	flaky := int(math.Round(FlakyShare * float64(n)))
	fail := int(math.Round(StableFailShare * float64(n)))
	if m.AllPass {
		flaky, fail = 0, 0
	}
	base = make([]item, n)
	for i := range base {
		switch {
		case i < flaky:
			base[i].p = FlakyP
		case i < flaky+fail:
			base[i].p = 1 - m.Stable
		default:
			base[i].p = m.Stable
		}
		if shape == ShapeDrift {
			base[i].notch = graded(base[i].p, i)
		}
	}
	cand = append([]item(nil), base...)
	if drop == 0 {
		return base, cand
	}
	switch shape {
	case ShapeBreak:
		pass := n - flaky - fail
		per := m.Stable - (1 - m.Stable) // what one broken item takes off, times n
		total := drop * float64(n)
		full := int(total / per)
		rest := total - float64(full)*per
		if full >= pass {
			panic(fmt.Sprintf("gatesim: a %.0f-pt drop needs more than the %d stable-pass items", 100*drop, pass))
		}
		order := rng.Perm(pass)
		for k := 0; k < full; k++ {
			cand[flaky+fail+order[k]].p = 1 - m.Stable
		}
		cand[flaky+fail+order[full]].p -= rest
	case ShapeUniform:
		// Every item's p falls by the same δ, floored at 0; δ is found by bisection so
		// the mean falls by exactly drop.
		lo, hi := 0.0, 1.0
		for range 60 {
			mid := (lo + hi) / 2
			if meanDrop(base, mid) < drop {
				lo = mid
			} else {
				hi = mid
			}
		}
		for i := range cand {
			cand[i].p = math.Max(0, base[i].p-hi)
		}
	case ShapeFlaky:
		per := drop * float64(n) / float64(flaky)
		if per > FlakyP {
			panic(fmt.Sprintf("gatesim: a %.0f-pt drop is more than the flaky items can lose", 100*drop))
		}
		for i := range flaky {
			cand[i].p = base[i].p - per
		}
	case ShapeDrift:
		// Each run's score falls a notch with probability ε (from 1 to 0.5, from 0.5
		// to 0): the mean falls by ε·0.5·P(score > 0).
		var above float64
		for _, it := range base {
			above += it.notch[1] + it.notch[2]
		}
		eps := drop * float64(n) / (0.5 * above)
		if eps > 1 {
			panic("gatesim: drift larger than the scores can fall")
		}
		for i := range cand {
			b := base[i].notch
			cand[i].notch = [3]float64{b[0] + eps*b[1], (1-eps)*b[1] + eps*b[2], (1 - eps) * b[2]}
		}
	}
	return base, cand
}

// graded is a graded item's notch distribution with mean p: stable items sit on one
// notch (with 1 − Stable of their runs a notch off), flaky ones spread over all three.
// Stable items alternate between the top and the middle notch so the suite has partial
// credit.
func graded(p float64, i int) [3]float64 {
	switch {
	case p == FlakyP:
		return [3]float64{0.25, 0.5, 0.25}
	case p >= 0.5:
		off := 1 - p
		if i%2 == 0 {
			return [3]float64{0, off, 1 - off} // top notch
		}
		return [3]float64{off / 2, 1 - off, off / 2} // middle notch
	default:
		return [3]float64{1 - p, p, 0}
	}
}

func meanDrop(items []item, delta float64) float64 {
	var s float64
	for _, it := range items {
		s += it.p - math.Max(0, it.p-delta)
	}
	return s / float64(len(items))
}

// draw is one run's score of an item in a run with run-level noise e.
func (it item) draw(shape Shape, e runEffect, rng *rand.Rand) float64 {
	u := rng.Float64()
	if shape == ShapeDrift {
		switch {
		case u < it.notch[0]:
			return 0
		case u < it.notch[0]+it.notch[1]:
			return 0.5
		}
		return 1
	}
	if u < e.apply(it.p) {
		return 1
	}
	return 0
}
