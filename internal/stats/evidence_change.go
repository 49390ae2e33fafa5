package stats

import (
	"math"
	"sort"
)

// The change model: with two or more candidate runs on pass/fail scores, the candidate
// itself shows which items moved.
//
// Each item either kept its score up to a suite-wide drift δ (weight 1 − w: its true
// score p is drawn from a distribution P over the grid, and its candidate's is p − δ,
// kept inside [0, 1]), or changed on its own (weight w: the baseline's true score is
// drawn from P and the candidate's, independently, from a distribution H of changed
// items' scores). P, H, w and δ are fitted to the whole comparison, baseline and
// candidate runs together, by maximum likelihood (EM from the baseline's prior, a fixed
// number of steps; δ by a safeguarded Newton step in each). The estimated drop of an
// item is its posterior mean of p_b − p_c: the drift for an item that kept its score,
// however its runs fell, and E[p_b] − E[p_c] for one that changed, weighted by how
// likely each is. An unchanged flaky item's runs then pool into one estimate instead of
// adding their sampling noise on both sides; a drift of every item is measured by the
// whole suite at once, against P fitted to both sides, so a suite whose stable items
// fail now and then on both sides shows no drift; and an item that passed every
// baseline run and failed every candidate run is read as changed.

// ChangeMinRuns is how many candidate runs an item needs for the change model: with one
// run an item's change cannot be told from its noise, and the item keeps the prediction
// error μ̂ − y.
const ChangeMinRuns = 2

// changeIterations is the change model's fixed number of EM steps.
const changeIterations = 60

// EndValue is where the change model reads the grid's end values: 0.005 % from 0 and 1
// (the prior's grid ends at 0.5 %), so a drift of items that never fail is measured
// from (almost) never failing, not from the grid's 0.5 %.
const EndValue = 0.00005

// maxDriftStep bounds one EM step of the drift δ.
const maxDriftStep = 0.02

// changeKey groups items with the same baseline and candidate (runs, rounded mean).
type changeKey struct{ b, c groupKey }

// changeEstimate is the change model's measurement over the items it covers.
type changeEstimate struct {
	drop  float64 // Σ E[p_b − p_c | data]
	w     float64 // fitted share of changed items
	delta float64 // fitted drift
}

// binLik is a binomial likelihood: x successes in eff trials, scaled by exp(−best).
type binLik struct{ x, eff, best float64 }

func (b binLik) at(lq, l1q float64) float64 { return math.Exp(b.x*lq + (b.eff-b.x)*l1q - b.best) }

// measureChange fits the change model to the counted items.
func (p Prior) measureChange(counts map[changeKey]int) changeEstimate {
	keys := make([]changeKey, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.b != b.b {
			return a.b.runs < b.b.runs || a.b.runs == b.b.runs && a.b.mean < b.b.mean
		}
		return a.c.runs < b.c.runs || a.c.runs == b.c.runs && a.c.mean < b.c.mean
	})
	const G = GridPoints
	val := make([]float64, G) // the grid's values, ends read at EndValue
	for g := range val {
		val[g] = grid(g)
	}
	val[0], val[G-1] = EndValue, 1-EndValue // the estimate's prior's grid (Prior.at)
	lik := func(mean float64, runs int) (binLik, []float64) {
		eff := float64(runs) / p.Lambda
		b := binLik{x: eff * mean, eff: eff, best: math.Inf(-1)}
		for _, q := range val {
			b.best = math.Max(b.best, b.x*math.Log(q)+(b.eff-b.x)*math.Log(1-q))
		}
		out := make([]float64, G)
		for g, q := range val {
			out[g] = b.at(math.Log(q), math.Log(1-q))
		}
		return b, out
	}
	type group struct {
		n      float64
		lb, lc []float64 // baseline's and candidate's likelihood on the grid
		ck     int       // candidate key's index
	}
	cIndex := map[groupKey]int{}
	var cands []binLik
	var cLik [][]float64
	bLik := map[groupKey][]float64{}
	groups := make([]group, len(keys))
	var total float64
	for i, k := range keys {
		ci, ok := cIndex[k.c]
		if !ok {
			ci = len(cands)
			cIndex[k.c] = ci
			b, l := lik(float64(k.c.mean)/meanBins, k.c.runs)
			cands, cLik = append(cands, b), append(cLik, l)
		}
		lb, ok := bLik[k.b]
		if !ok {
			_, lb = lik(float64(k.b.mean)/meanBins, k.b.runs)
			bLik[k.b] = lb
		}
		groups[i] = group{n: float64(counts[k]), lb: lb, lc: cLik[ci], ck: ci}
		total += groups[i].n
	}
	// Under "kept its score" the candidate's true score is s_δ(v) = v − δ, inside the
	// grid's end values and never moved past v the other way.
	sq := make([]float64, G)
	sh := make([][]float64, len(cands)) // ℓ_c(s_δ(v))
	da := make([][]float64, len(cands)) // d ln ℓ_c(s_δ(v))/dδ
	db := make([][]float64, len(cands)) // d² ln ℓ_c(s_δ(v))/dδ²
	for ci := range cands {
		sh[ci], da[ci], db[ci] = make([]float64, G), make([]float64, G), make([]float64, G)
	}
	shift := func(delta float64) {
		for g, v := range val {
			q := math.Min(1-EndValue, math.Max(EndValue, v-delta))
			free := q == v-delta
			if delta > 0 && q > v || delta < 0 && q < v {
				q, free = v, false
			}
			sq[g] = q
			lq, l1q := math.Log(q), math.Log(1-q)
			for ci, c := range cands {
				sh[ci][g] = c.at(lq, l1q)
				da[ci][g], db[ci][g] = 0, 0
				if free {
					da[ci][g] = -c.x/q + (c.eff-c.x)/(1-q)
					db[ci][g] = -c.x/(q*q) - (c.eff-c.x)/((1-q)*(1-q))
				}
			}
		}
	}
	pw := append([]float64(nil), p.Weights...) // P
	hw := append([]float64(nil), p.Weights...) // H
	w, delta := 0.5, 0.0
	shift(delta)
	// fit computes, for the current P, H, w and δ, each group's likelihoods.
	type fitted struct{ l0, d0, e0, ab, ac float64 }
	fits := make([]fitted, len(groups))
	acs := make([]float64, len(cands))
	evalAll := func() float64 {
		for ci, l := range cLik {
			var s float64
			for g, x := range l {
				s += hw[g] * x
			}
			acs[ci] = s
		}
		var ll float64
		for i, gr := range groups {
			var f fitted
			s, a, b := sh[gr.ck], da[gr.ck], db[gr.ck]
			for g, x := range gr.lb {
				y := pw[g] * x
				f.ab += y
				y *= s[g]
				f.l0 += y
				f.d0 += y * a[g]
				f.e0 += y * (a[g]*a[g] + b[g])
			}
			f.ac = acs[gr.ck]
			fits[i] = f
			ll += gr.n * math.Log(w*f.ab*f.ac+(1-w)*f.l0)
		}
		return ll
	}
	nextP, nextH := make([]float64, G), make([]float64, G)
	ll := evalAll()
	for range changeIterations {
		for g := range nextP {
			nextP[g], nextH[g] = Smoothing, Smoothing
		}
		var sumR, g1, g2 float64
		for i, gr := range groups {
			f := fits[i]
			l1 := f.ab * f.ac
			m := w*l1 + (1-w)*f.l0
			r := w * l1 / m
			sumR += gr.n * r
			c0, cb, cc := 0.0, gr.n*r/f.ab, gr.n*r/f.ac
			if f.l0 > 0 { // 0 when "kept its score" cannot explain the group (r = 1)
				c0 = gr.n * (1 - r) / f.l0
			}
			s := sh[gr.ck]
			for g, x := range gr.lb {
				y := pw[g] * x
				nextP[g] += c0*y*s[g] + cb*y
				nextH[g] += cc * hw[g] * gr.lc[g]
			}
			t := (1 - w) * f.d0 / m
			g1 += gr.n * t
			g2 += gr.n * ((1-w)*f.e0/m - t*t)
		}
		normalize(nextP)
		normalize(nextH)
		copy(pw, nextP)
		copy(hw, nextH)
		w = sumR / total
		ll = evalAll()
		// δ: a Newton step on the log-likelihood, P, H and w held (a bounded step where
		// it is not concave), halved until the likelihood does not fall.
		if g1 == 0 {
			continue
		}
		step := maxDriftStep * math.Copysign(1, g1)
		if g2 < 0 {
			step = math.Max(-maxDriftStep, math.Min(maxDriftStep, -g1/g2))
		}
		moved := false
		for range 8 {
			nd := math.Max(-1, math.Min(1, delta+step))
			shift(nd)
			if l := evalAll(); l >= ll {
				delta, ll, moved = nd, l, true
				break
			}
			step /= 2
		}
		if !moved {
			shift(delta)
			ll = evalAll()
		}
	}
	// Each group's posterior mean drop: E[p_b] − E[p_c] if it changed (p_c from H), the
	// drift v − s_δ(v) on its posterior if it kept its score.
	mc := make([]float64, len(cands))
	for ci, l := range cLik {
		var s, m1 float64
		for g, x := range l {
			y := hw[g] * x
			s += y
			m1 += y * val[g]
		}
		mc[ci] = m1 / s
	}
	est := changeEstimate{w: w, delta: delta}
	for i, gr := range groups {
		f := fits[i]
		r := w * f.ab * f.ac / (w*f.ab*f.ac + (1-w)*f.l0)
		var b1, d1 float64
		s := sh[gr.ck]
		for g, x := range gr.lb {
			y := pw[g] * x
			b1 += y * val[g]
			d1 += y * s[g] * (val[g] - sq[g])
		}
		var m0 float64
		if f.l0 > 0 {
			m0 = d1 / f.l0
		}
		est.drop += gr.n * (r*(b1/f.ab-mc[gr.ck]) + (1-r)*m0)
	}
	return est
}

// normalize scales xs to sum to 1.
func normalize(xs []float64) {
	var z float64
	for _, x := range xs {
		z += x
	}
	for i := range xs {
		xs[i] /= z
	}
}

// ChangeMinLambda is the smallest Prior.Lambda the change model applies to: scores
// that vary from run to run as pass/fail scores do (λ = 1), for which its binomial
// likelihood is exact. Graded scores keep the prediction error μ̂ − y.
const ChangeMinLambda = 0.99
