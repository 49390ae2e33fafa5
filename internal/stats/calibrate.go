package stats

import "math"

// The estimate's prior predicts what the candidate scores if nothing changed. Its items'
// posterior means must then average to what the baseline's runs scored: the baseline's
// mean is an unbiased reading of the suite's expected score, and an estimate that
// predicts less reads an unchanged suite as an improvement. A fitted prior does not
// always hold that mean. When no distribution of true scores can give the baseline's
// run patterns exactly (a suite whose items fail once in three runs and never twice: a
// point near 1 would have to fail once but not twice), the fit compromises and its mean
// moves: a suite of 200 items that pass 99.25 % of the time was predicted about
// 0.12–0.23 pts below its baseline, on every pull request.
//
// calibrate tilts the estimate's prior exponentially, w_g ∝ w_g·e^(θ·q_g), with θ the
// one value (found by bisection; the items' mean posterior mean rises with θ) at which
// the items' posterior means average to their baseline means' average. A prior that
// already holds the mean gets θ = 0 and is unchanged. The tilt is the smallest change
// of the prior, in Kullback–Leibler divergence, that holds a given mean.

// tiltLimit bounds |θ|: e^(tiltLimit·0.01) separates grid values 1 pt apart by a
// factor of e^5, more than any suite's mean needs; a mean the bound cannot reach (an
// all-pass suite's 1, which no grid value reaches) gets the nearest the bound allows.
const tiltLimit = 500

// tiltSteps is the bisection's fixed step count: |θ| to within 1000·2^−60.
const tiltSteps = 60

// calibrate tilts p (the estimate's prior, fitted to f's items) to hold the items'
// mean baseline score; see above.
func (f *PriorFit) calibrate(p *Prior) {
	if f.n == 0 {
		return
	}
	keys := f.sortedKeys()
	var target float64
	lik := make([][]float64, len(keys))
	for i, k := range keys {
		target += float64(f.groups[k]) * float64(k.mean) / meanBins
		lik[i] = p.likelihood(float64(k.mean)/meanBins, k.runs)
	}
	target /= float64(f.n)
	tilted := make([]float64, GridPoints)
	meanAt := func(theta float64) float64 {
		for g, w := range p.Weights {
			tilted[g] = w * math.Exp(theta*(p.at(g)-1)) // −1 keeps e^x ≤ 1 for θ ≥ 0
			if theta < 0 {
				tilted[g] = w * math.Exp(theta*p.at(g))
			}
		}
		var sum float64
		for i, k := range keys {
			var z, m float64
			for g, l := range lik[i] {
				z += tilted[g] * l
				m += tilted[g] * l * p.at(g)
			}
			if z > 0 {
				sum += float64(f.groups[k]) * m / z
			}
		}
		return sum / float64(f.n)
	}
	lo, hi := -float64(tiltLimit), float64(tiltLimit)
	m0 := meanAt(0)
	switch {
	case m0 == target:
		return
	case m0 < target:
		lo = 0
	default:
		hi = 0
	}
	for range tiltSteps {
		mid := (lo + hi) / 2
		if meanAt(mid) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	theta := (lo + hi) / 2
	meanAt(theta)
	var z float64
	for _, w := range tilted {
		z += w
	}
	p.Mean = 0
	for g := range p.Weights {
		p.Weights[g] = tilted[g] / z
		p.Mean += p.Weights[g] * p.at(g)
	}
	p.cache = map[int]*postRow{}
}
