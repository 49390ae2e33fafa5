package stats

import (
	"math"
	"math/rand/v2"
)

// The simulation's model of a regression suite (docs/gate-trust.md, "The model").
//
// Every item has a true pass probability per run. Most items are stable: a stable-pass
// item passes with probability 0.97, a stable-fail item with 0.03. Flaky items pass with
// probability 0.5. A run scores an item 1 when it passes and 0 when it fails: binary
// scores are the noisiest a [0, 1] rubric can produce, so the rates are a worst case for
// suites with partial credit. An item's score is the mean over its runs, which for
// binary scores is also its pass rate.
const (
	simPassP      = 0.97
	simFailP      = 0.03
	simFlakyP     = 0.5
	simFlakyShare = 0.15
	simFailShare  = 0.05
)

// How a simulated regression hurts the stable-pass items it hits: they break (fall to
// the stable-fail probability) or go flaky (fall to one half).
const (
	simBreak   = simFailP
	simGoFlaky = simFlakyP
)

// simSuite returns each item's true pass probability in the baseline and after the
// change. Of the n items, round(0.15·n) are flaky, round(0.05·n) stable-fail and the
// rest stable-pass. A true drop of d points (a fraction, 0.02 = 2 pts) hits randomly
// chosen stable-pass items: ⌊d·n/(0.97 − hitP)⌋ of them fall from 0.97 to hitP (each
// takes (0.97 − hitP)/n off the expected mean) and one more falls by the remainder, so
// the expected suite mean falls by exactly d. hitP is simBreak (0.03: each hit takes
// 0.94/n) or simGoFlaky (0.5: 0.47/n).
func simSuite(n int, drop, hitP float64, rng *rand.Rand) (base, cand []float64) {
	flaky := int(math.Round(simFlakyShare * float64(n)))
	fail := int(math.Round(simFailShare * float64(n)))
	base = make([]float64, n)
	for i := range base {
		switch {
		case i < flaky:
			base[i] = simFlakyP
		case i < flaky+fail:
			base[i] = simFailP
		default:
			base[i] = simPassP
		}
	}
	cand = append([]float64(nil), base...)
	pass := n - flaky - fail
	perHit := simPassP - hitP
	total := drop * float64(n) // in units of one item's pass probability
	full := int(total / perHit)
	rest := total - float64(full)*perHit
	if full >= pass {
		panic("simSuite: drop larger than the stable-pass items can give")
	}
	order := rng.Perm(pass)
	for k := range full {
		cand[flaky+fail+order[k]] = hitP
	}
	cand[flaky+fail+order[full]] -= rest
	return base, cand
}

// simRuns fills scores with each item's mean over runs independent binary runs drawn
// with pass probabilities p. With binary scores the mean is also the pass rate.
func simRuns(p []float64, runs int, rng *rand.Rand, scores []float64) {
	for i, pi := range p {
		k := 0
		for range runs {
			if rng.Float64() < pi {
				k++
			}
		}
		scores[i] = float64(k) / float64(runs)
	}
}
