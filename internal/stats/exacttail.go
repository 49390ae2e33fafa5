package stats

import (
	"math"
	"slices"
	"sort"
)

// The exact tail of a one-run pass/fail candidate. With one candidate run of a pass/fail
// score, the model says item i fails with probability q_i = 1 − μ̂_i (its posterior
// failure rate: the run is a coin of a true score drawn from the posterior, and such a
// draw is exactly a coin of the posterior mean), independently of the other items. The
// precision-weighted statistic is then a constant plus S = Σ w_i·f_i over the items'
// failures f_i, and the unweighted one a constant plus the failure count. Their tails
// can be computed exactly instead of through the Cornish–Fisher correction, which
// reads a count like "1 of 8 stable items failed" far too confidently when failures
// are rare (a skewness far beyond the range the correction holds in).

// ExactTailItems is the most items whose failure probabilities the measurement keeps
// for the exact tail; beyond it the Cornish–Fisher reading is used.
const ExactTailItems = 2000

// exactTailStates bounds the distinct sums the weighted tail's distribution may hold.
const exactTailStates = 200000

// negligible is the probability under which a sum is dropped from the distribution.
const negligible = 1e-18

// coin is one item of a one-run pass/fail candidate: its weight, failure probability
// and whether it failed.
type coin struct {
	w, q   float64
	failed bool
}

// exactTails are the one-sided p-values of the weighted and unweighted statistics,
// P(S ≥ observed), and ok = false when the weighted sum's distribution grows past
// exactTailStates (many distinct weights): then neither is used.
func exactTails(coins []coin) (pw, pu float64, ok bool) {
	// Items with the same weight and failure probability are one binomial.
	type group struct {
		w, q float64
		n    int
	}
	idx := map[[2]float64]int{}
	var groups []group
	var obsW float64
	obsN := 0
	for _, c := range coins {
		k := [2]float64{c.w, c.q}
		g, seen := idx[k]
		if !seen {
			g = len(groups)
			idx[k] = g
			groups = append(groups, group{w: c.w, q: c.q})
		}
		groups[g].n++
		if c.failed {
			obsW += c.w
			obsN++
		}
	}
	sort.Slice(groups, func(i, j int) bool { // map order must not change a float sum
		if groups[i].w != groups[j].w {
			return groups[i].w < groups[j].w
		}
		return groups[i].q < groups[j].q
	})
	// Unweighted: the failure count, a sum of binomials (Poisson-binomial), exactly.
	count := []float64{1}
	for _, g := range groups {
		count = convolve(count, binomialPMF(g.n, g.q))
	}
	for k := obsN; k < len(count); k++ {
		pu += count[k]
	}
	// Weighted: the distribution of Σ w·f on its support, sums within a relative 1e-9
	// of each other merged.
	var maxSum float64
	for _, g := range groups {
		maxSum += g.w * float64(g.n)
	}
	if maxSum <= 0 {
		return 1, math.Min(1, pu), true
	}
	scale := 1e9 / maxSum
	// The sums are visited in increasing order, so the float sums do not depend on a
	// map's order (the same inputs give the same p-value to the last bit).
	dist := map[int64]float64{0: 1}
	keys := []int64{0}
	for _, g := range groups {
		pmf := binomialPMF(g.n, g.q)
		next := map[int64]float64{}
		for _, s := range keys {
			p := dist[s]
			for k, pk := range pmf {
				if v := p * pk; v > negligible {
					next[s+int64(math.Round(float64(k)*g.w*scale))] += v
				}
			}
		}
		if len(next) > exactTailStates {
			return 0, 0, false
		}
		dist, keys = next, sortedKeys(next)
	}
	obs := int64(math.Round(obsW * scale))
	for _, s := range keys {
		if s >= obs {
			pw += dist[s]
		}
	}
	return math.Min(1, pw), math.Min(1, pu), true
}

// binomialPMF is P(K = k), k = 0..n, for K ~ Binomial(n, q), with probabilities under
// negligible cut from the upper end.
func binomialPMF(n int, q float64) []float64 {
	out := make([]float64, n+1)
	switch {
	case q <= 0:
		out[0] = 1
		return out
	case q >= 1:
		out[n] = 1
		return out
	}
	lq, l1q := math.Log(q), math.Log1p(-q)
	ln, _ := math.Lgamma(float64(n + 1))
	for k := range out {
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		out[k] = math.Exp(ln - lk - lnk + float64(k)*lq + float64(n-k)*l1q)
	}
	last := n
	for last > 0 && out[last] < negligible {
		last--
	}
	return out[:last+1]
}

// convolve is the distribution of the sum of two independent counts.
func convolve(a, b []float64) []float64 {
	out := make([]float64, len(a)+len(b)-1)
	for i, x := range a {
		if x < negligible {
			continue
		}
		for j, y := range b {
			out[i+j] += x * y
		}
	}
	return out
}

func sortedKeys(m map[int64]float64) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
