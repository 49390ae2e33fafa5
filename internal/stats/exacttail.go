package stats

import (
	"math"
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
	// Meet in the middle: the groups are split in two halves of about equal support,
	// each half's sum distribution is built exactly (sortedSums), and the tail is
	// Σ P(A = a)·P(B ≥ observed − a), one sweep over both sorted lists.
	var halves [2][]tailGroup
	var sizes [2]float64
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return groups[order[i]].n > groups[order[j]].n })
	for _, i := range order {
		h := 0
		if sizes[1] < sizes[0] {
			h = 1
		}
		g := groups[i]
		halves[h] = append(halves[h], tailGroup{w: g.w, pmf: binomialPMF(g.n, g.q)})
		sizes[h] += math.Log(float64(g.n + 1))
	}
	a, okA := sortedSums(halves[0], scale)
	b, okB := sortedSums(halves[1], scale)
	if !okA || !okB {
		return 0, 0, false
	}
	obs := int64(math.Round(obsW * scale))
	// bAbove is P(B ≥ b[j].sum), summed from the largest sum down.
	bAbove := make([]float64, len(b)+1)
	for j := len(b) - 1; j >= 0; j-- {
		bAbove[j] = bAbove[j+1] + b[j].p
	}
	j := len(b)
	for i := range a { // a ascending: the sum B needs only falls
		need := obs - a[i].sum
		for j > 0 && b[j-1].sum >= need {
			j--
		}
		pw += a[i].p * bAbove[j]
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

// tailGroup is one group of items with the same weight: the weight and the
// distribution of how many of them fail.
type tailGroup struct {
	w   float64
	pmf []float64
}

// tailState is one sum of the weighted tail's distribution (in units of 1/scale) and
// its probability.
type tailState struct {
	sum int64
	p   float64
}

// sortedSums is the distribution of Σ w·k over the groups, sums in units of 1/scale,
// sorted by sum, and false when it would hold more than exactTailStates sums. Each
// group's binomial adds its count k (weight k·w) to every sum: the shifted copies are
// merged in, the largest k first, so each sum adds its parts in a fixed order and the
// same inputs give the same p-value to the last bit.
func sortedSums(groups []tailGroup, scale float64) ([]tailState, bool) {
	cur := []tailState{{0, 1}}
	var next, spare []tailState
	for _, g := range groups {
		next = next[:0]
		for k := len(g.pmf) - 1; k >= 0; k-- {
			shift := int64(math.Round(float64(k) * g.w * scale))
			spare = mergeShifted(spare[:0], next, cur, shift, g.pmf[k])
			next, spare = spare, next
			if len(next) > exactTailStates { // merging only adds sums
				return nil, false
			}
		}
		cur, next = next, cur
	}
	return cur, true
}

// mergeShifted appends to dst the merge of acc and from (both sorted by sum) with from's
// sums moved by shift and its probabilities times pk; equal sums add, acc's part first.
// Parts of from under negligible are left out.
func mergeShifted(dst, acc, from []tailState, shift int64, pk float64) []tailState {
	i := 0
	for _, f := range from {
		v := f.p * pk
		if v <= negligible {
			continue
		}
		s := f.sum + shift
		for i < len(acc) && acc[i].sum < s {
			dst = append(dst, acc[i])
			i++
		}
		if i < len(acc) && acc[i].sum == s {
			dst = append(dst, tailState{s, acc[i].p + v})
			i++
			continue
		}
		dst = append(dst, tailState{s, v})
	}
	return append(dst, acc[i:]...)
}
