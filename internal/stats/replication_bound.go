package stats

import "math"

// The replication test's prediction for a re-run item is its posterior mean given its
// baseline and full runs, under a prior fitted to the baseline. Three baseline runs pin
// down three moments of the items' spread, and an item seen four times (three baseline
// runs, one full run) is predicted from a fourth and fifth the fitted prior makes up:
// flaky items all at p = 0.5 that passed three baseline runs and failed the full run
// were predicted to pass a re-run with about 0.75, and their re-runs failing half the
// time read as a drop.
//
// Under "nothing changed" every item's baseline and full runs are draws of one p, so
// the suite's own pass/fail patterns over all those runs measure, prior-free,
// E[p^j·(1 − p)^f] for j + f up to the runs' count K: the share of ordered (j + f)-tuples
// of an item's runs that go j passes, then f fails ([s]_j·[K − s]_f/[K]_(j+f) for s
// passes, [x]_k the falling factorial), averaged over the items. From them
// E[p | j passes, f fails] = E[p^(j+1)(1 − p)^f]/E[p^j(1 − p)^f] for j + f + 1 ≤ K, and a
// pass more can only raise the chance of the next (the posterior given one pass more is
// the same one tilted by p), so an item that passed a times and failed f times (K =
// a + f) is predicted at least E[p | a − 1 passes, f fails], whatever the items'
// spread: the floor (patterns.floor), above which the prediction never goes.
//
// With flaky items at one pass rate the floor is that rate; where the suite's stable
// items sit near (not at) 1 it is lower than the truth (0.75 against 0.82 with 75 % of
// items at 0.97 and 15 % at 0.5), and a break raises it: items that passed every
// baseline run and failed the full run add as much to the numerator as to the
// denominator.

// patterns counts the suite's pass/fail items by runs K and passes s, over their
// baseline and full runs together.
type patterns struct {
	n [][]int // n[K][s]: items seen K times that passed s of them
}

// PatternMaxRuns is the most baseline and full runs of an item the floor counts: its
// counts grow as the square of the runs, and an item seen more often is left out of
// them (its own prediction then has no floor unless others were seen as often).
const PatternMaxRuns = 64

// add counts an item with baseline mean bm over br runs and full-run mean fm over fr
// runs; items whose scores are not whole passes, or seen more than PatternMaxRuns
// times, are left out.
func (p *patterns) add(bm float64, br int, fm float64, fr int) {
	s, ok1 := passes(bm, br)
	t, ok2 := passes(fm, fr)
	if !ok1 || !ok2 || br+fr > PatternMaxRuns {
		return
	}
	k := br + fr
	for len(p.n) <= k {
		p.n = append(p.n, make([]int, len(p.n)+1))
	}
	p.n[k][s+t]++
}

// passes is mean·runs when it is a whole number.
func passes(mean float64, runs int) (int, bool) {
	x := mean * float64(runs)
	s := math.Round(x)
	return int(s), runs > 0 && math.Abs(x-s) < 1e-6
}

// falling is [x]_k = x(x − 1)…(x − k + 1).
func falling(x, k int) float64 {
	out := 1.0
	for i := range k {
		out *= float64(x - i)
	}
	return out
}

// moment is E[p^j(1 − p)^f] over the items with at least k ≥ j + f runs, and whether any.
func (p *patterns) moment(j, f, k int) (float64, bool) {
	var sum float64
	n := 0
	for runs := k; runs < len(p.n); runs++ {
		for s, c := range p.n[runs] {
			sum += float64(c) * falling(s, j) * falling(runs-s, f) / falling(runs, j+f)
			n += c
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// floor is the prediction's floor for an item that passed a and failed f of its
// baseline and full runs, E[p | a − 1 passes, f fails] over the items seen at least
// a + f times (see above), and whether one can be read: none when those items' patterns
// hold no such runs (the ratio's denominator is 0), and none where the item passed
// once only (one baseline run and one full run): a floor of E[p | f fails] alone is the
// chance that any failed item passes, far under that of an item seen to pass, and the
// prior, which there is all the suite has, reads the item instead.
func (p *patterns) floor(a, f int) (float64, bool) {
	j := a - 1
	if j < 1 || f < 1 {
		return 0, false
	}
	num, ok1 := p.moment(j+1, f, a+f)
	den, ok2 := p.moment(j, f, a+f)
	if !ok1 || !ok2 || den <= 0 {
		return 0, false
	}
	return math.Min(1, num/den), true
}

// floored lowers post's mean to the floor of an item that passed a and failed f runs,
// when it is above it, keeping its Var(p): E[p(1 − p)] = m(1 − m) − Var(p).
func (p *patterns) floored(post posterior, a, f int) posterior {
	m, ok := p.floor(a, f)
	if !ok || post.mean <= m {
		return post
	}
	post.mean = m
	post.pq = math.Max(0, m*(1-m)-post.varP)
	if m > 0 && m < 1 {
		post.skew1 = (2*m - 1) / math.Sqrt(m*(1-m))
	}
	return post
}

// rerunItem is a re-run item kept for the replication test until the suite's patterns
// are counted: its baseline and full-run means and runs, its rounds, its weight in the
// evidence test and its posterior given the baseline alone.
type rerunItem struct {
	base, full         float64
	baseRuns, fullRuns int
	rounds             []float64
	w                  float64
	post               posterior
}

// replicationPost is a re-run item's prediction: its posterior under the replication
// test's prior given its baseline and full runs, floored for pass/fail scores.
func (a *EvidenceAccumulator) replicationPost(it rerunItem) posterior {
	k := it.baseRuns + it.fullRuns
	mean := (it.base*float64(it.baseRuns) + it.full*float64(it.fullRuns)) / float64(k)
	post := a.repPrior.posterior(mean, k)
	if a.prior.Lambda < ExactMinLambda {
		return post
	}
	s, ok1 := passes(it.base, it.baseRuns)
	t, ok2 := passes(it.full, it.fullRuns)
	if !ok1 || !ok2 {
		return post
	}
	return a.pat.floored(post, s+t, k-s-t)
}
