package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/evalgate/evalgate/internal/stats"
)

// noise is a suite's noise model: what each item's pass probability is, and what a
// whole run does to all of them at once.
type noise struct {
	// items is the suite's size.
	items int
	// allPass: every item passes in every run (p = 1 exactly); no flaky or failing items.
	allPass bool
	// allFail: every item fails in every run (p = 0 exactly): the all-pass suite's
	// mirror, for the no-change bias.
	allFail bool
	// nearPass: every item is a stable-pass item near (not at) 1, p = 1 − 0.03·u³:
	// an "all-pass" suite whose items fail now and then (about 0.75 % of them a run).
	nearPass bool
	// shiftSD is run-level noise on the logit scale: each run (a baseline run, a pull
	// request's run, a settle round) draws η ~ N(0, shiftSD²), and an item with pass
	// probability p in (0, 1) passes with 1/(1 + e^−(logit p + η)) in it. A provider's
	// bad day: borderline items fail together.
	shiftSD float64
	// shiftDF, when > 0, draws the logit shift from Student's t with that many
	// degrees of freedom (scaled by shiftSD) instead of the normal: heavy-tailed run
	// noise, an occasional run far worse than the rest.
	shiftDF float64
	// outageMax is run-level noise that hits stable items too: each run draws f uniform
	// in [0, outageMax], and every item fails outright with probability f in it (rate
	// limits, timeouts).
	outageMax float64
	// addSD is run-level noise on the probability scale: each run draws
	// δ ~ N(0, addSD²), and every item's pass probability moves by δ, clipped to
	// [0, 1]: a run worse (or better) everywhere at once, stable items included.
	addSD float64
	// badDay is run-level noise as a mixture: each run is a bad day with probability
	// badDay, and on a bad day every item fails outright with probability badFail.
	badDay, badFail float64
	// flaky is the share of flaky items; 0 means flakyShare.
	flaky float64
	// flakyAt, when in (0, 1), puts every flaky item at exactly that pass probability
	// instead of spreading them over [flakyLo, flakyHi]: a point mass a fitted smooth
	// prior cannot hold.
	flakyAt float64
	// topics and topicSD are run-level noise by topic: the items fall into topics
	// groups (item i in topic i mod topics), and each run draws every topic its own
	// logit shift ~ N(0, topicSD²) on top of shiftSD's: a run that is bad on one
	// kind of question and fine on the rest.
	topics  int
	topicSD float64
	// graded: each item is scored 0–2 by a judge, recorded in the results (two draws of
	// its pass probability in the run, summed), not pass/fail; run-level noise is then a
	// judge that drifts from run to run. No settle: the rerun-item mode writes outputs.
	graded bool
	// exact puts stable items at exactly 0 or 1 (a deterministic item; run-level
	// logit noise cannot move it), and flakyRange, when set, spreads the flaky items
	// over it instead of [flakyLo, flakyHi].
	exact      bool
	flakyRange [2]float64
}

// The item kinds' shares of a suite that is not all-pass. These are this harness's
// own choices, not gatesim's: flaky items spread over [0.25, 0.85], stable items sit
// near (not at) 0 or 1.
const (
	flakyShare = 0.20
	failShare  = 0.10
	flakyLo    = 0.25
	flakyHi    = 0.85
)

// kind is what an item is in the baseline.
type kind int

const (
	stablePass kind = iota
	flaky
	stableFail
)

// suiteOf draws a suite's per-item pass probabilities and kinds.
func (m noise) suiteOf(rng *rand.Rand) ([]float64, []kind) {
	p := make([]float64, m.items)
	k := make([]kind, m.items)
	share := flakyShare
	if m.flaky > 0 {
		share = m.flaky
	}
	nFlaky := int(math.Round(share * float64(m.items)))
	nFail := int(math.Round(failShare * float64(m.items)))
	if m.allPass || m.allFail || m.nearPass {
		nFlaky, nFail = 0, 0
	}
	for i, j := range rng.Perm(m.items) {
		u := rng.Float64()
		switch {
		case m.allPass:
			p[i] = 1
		case m.allFail:
			k[i], p[i] = stableFail, 0
		case j < nFlaky && m.flakyAt > 0 && m.flakyAt < 1:
			k[i], p[i] = flaky, m.flakyAt
		case j < nFlaky && m.flakyRange[1] > 0:
			k[i], p[i] = flaky, m.flakyRange[0]+(m.flakyRange[1]-m.flakyRange[0])*u
		case j < nFlaky:
			k[i], p[i] = flaky, flakyLo+(flakyHi-flakyLo)*u
		case j < nFlaky+nFail && m.exact:
			k[i], p[i] = stableFail, 0
		case j < nFlaky+nFail:
			k[i], p[i] = stableFail, 0.03*u*u*u
		case m.exact:
			k[i], p[i] = stablePass, 1
		default:
			k[i], p[i] = stablePass, 1-0.03*u*u*u
		}
	}
	return p, k
}

// change is how a pull request changes the suite.
type change struct {
	// shape is "none", "flaky" (every flaky item's pass probability falls by the same
	// amount; no stable item moves) or "break" (stable-pass items break: their pass
	// probability falls to 0, the last one partly).
	shape string
	// drop is the true drop of the mean pass probability (0.04 = 4 pts).
	drop float64
}

// apply returns the candidate's pass probabilities. The drop is exact on the item
// probabilities (before run-level noise).
func (c change) apply(base []float64, kinds []kind, rng *rand.Rand) ([]float64, error) {
	cand := append([]float64(nil), base...)
	total := c.drop * float64(len(base))
	switch c.shape {
	case "none":
		return cand, nil
	case "flaky":
		var idx []int
		for i, k := range kinds {
			if k == flaky {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return nil, fmt.Errorf("a flaky drop needs flaky items")
		}
		d := total / float64(len(idx))
		if d > flakyLo {
			return nil, fmt.Errorf("a %.1f-pt drop is more than the flaky items can lose", 100*c.drop)
		}
		for _, i := range idx {
			cand[i] -= d
		}
	case "break":
		removed := 0.0
		for _, i := range rng.Perm(len(base)) {
			if removed >= total-1e-12 {
				break
			}
			if kinds[i] != stablePass {
				continue
			}
			r := math.Min(cand[i], total-removed)
			cand[i] -= r
			removed += r
		}
		if removed < total-1e-9 {
			return nil, fmt.Errorf("a %.1f-pt break needs more stable-pass items", 100*c.drop)
		}
	default:
		return nil, fmt.Errorf("unknown change %q", c.shape)
	}
	return cand, nil
}

// runEffect is one run's run-level noise.
type runEffect struct {
	eta, fail, add float64
	topic          []float64 // per topic: its logit shift in this run
}

func (m noise) runEffect(rng *rand.Rand) runEffect {
	var e runEffect
	if m.shiftSD > 0 {
		e.eta = m.shiftSD * rng.NormFloat64()
		if m.shiftDF > 0 {
			e.eta *= studentScale(m.shiftDF, rng)
		}
	}
	if m.outageMax > 0 {
		e.fail = m.outageMax * rng.Float64()
	}
	if m.addSD > 0 {
		e.add = m.addSD * rng.NormFloat64()
	}
	if m.badDay > 0 && rng.Float64() < m.badDay {
		e.fail = m.badFail
	}
	if m.topics > 0 {
		e.topic = make([]float64, m.topics)
		for t := range e.topic {
			e.topic[t] = m.topicSD * rng.NormFloat64()
		}
	}
	return e
}

// studentScale is √(ν/χ²_ν), which turns a standard normal draw into Student's t
// with ν degrees of freedom (χ²_ν drawn as a sum of ν squared normals; ν rounded).
func studentScale(nu float64, rng *rand.Rand) float64 {
	k := max(1, int(math.Round(nu)))
	var c float64
	for range k {
		z := rng.NormFloat64()
		c += z * z
	}
	return math.Sqrt(float64(k) / c)
}

// probOf is item i's pass probability in a run with effect e: prob with its topic's
// shift added to the run's.
func (e runEffect) probOf(i int, p float64) float64 {
	if len(e.topic) > 0 {
		e.eta += e.topic[i%len(e.topic)]
	}
	return e.prob(p)
}

// prob is an item's pass probability in a run with effect e.
func (e runEffect) prob(p float64) float64 {
	if e.eta != 0 && p > 0 && p < 1 {
		p = 1 / (1 + math.Exp(-(math.Log(p/(1-p)) + e.eta)))
	}
	if e.add != 0 {
		p = math.Min(1, math.Max(0, p+e.add))
	}
	return p * (1 - e.fail)
}

// draw is one run of the items with pass probabilities p: 1 for a pass, 0 for a fail.
func (m noise) draw(p []float64, rng *rand.Rand) []bool {
	e := m.runEffect(rng)
	out := make([]bool, len(p))
	for i, pi := range p {
		out[i] = rng.Float64() < e.probOf(i, pi)
	}
	return out
}

// drawGraded is one run of graded items: 0, 1 or 2 each, two draws of the item's
// pass probability in the run (one run-level effect for both), whose mean over 2 is
// the probability.
func (m noise) drawGraded(p []float64, rng *rand.Rand) []int {
	e := m.runEffect(rng)
	out := make([]int, len(p))
	for i, pi := range p {
		q := e.probOf(i, pi)
		for range 2 {
			if rng.Float64() < q {
				out[i]++
			}
		}
	}
	return out
}

// expectedMean is the suite's expected mean score over run-level noise: the mean that
// an endless number of runs would show. The logit and additive shifts are integrated
// on 200 normal quantiles (a heavy-tailed logit shift on 2,000 of Student's t), the outage and the bad day exactly (their mean failure
// rates are outageMax/2 and badDay·badFail).
func (m noise) expectedMean(p []float64) float64 {
	effects := []runEffect{{}}
	// A topic's shift adds to the run's on the logit scale: per item, one normal shift
	// of variance shiftSD² + topicSD².
	eta := math.Hypot(m.shiftSD, m.topicSD)
	switch {
	case m.shiftDF > 0 && eta > 0:
		const k = 2000
		effects = effects[:0]
		for j := range k {
			t := stats.StudentQuantile((float64(j)+0.5)/k, m.shiftDF)
			effects = append(effects, runEffect{eta: m.shiftSD * t})
		}
	case eta > 0 || m.addSD > 0:
		const k = 200
		effects = effects[:0]
		for j := range k {
			z := math.Sqrt2 * math.Erfinv(2*(float64(j)+0.5)/k-1)
			effects = append(effects, runEffect{eta: eta * z, add: m.addSD * z})
		}
	}
	var s float64
	for _, e := range effects {
		for _, pi := range p {
			s += e.prob(pi)
		}
	}
	return s / float64(len(effects)*len(p)) * (1 - m.outageMax/2) * (1 - m.badDay*m.badFail)
}
