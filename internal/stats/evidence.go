package stats

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/evalgate/evalgate/internal/topk"
)

// The evidence measurement: how strongly does a candidate's drop stand out from the
// noise the baseline's runs predict, item by item?
//
// The model. Each item i has a true mean score p_i in [0, 1]; one run scores it with
// mean p_i and variance λ·p_i·(1 − p_i), where λ = 1 for pass/fail scores and λ < 1
// for graded scores that vary less than a coin would (λ is estimated from the baseline's
// per-item spread, Prior.Lambda). Across the suite the p_i follow a distribution fitted
// to the baseline by maximum likelihood (Prior: nonparametric, on a grid). Each item's
// p_i is then estimated by its posterior given its own baseline runs: an item that
// passed 3 of 3 runs is not certain to pass again (its posterior mean is below 1 by
// how often items of this suite that look stable are not), and an item that flipped is
// pulled toward the suite's distribution. This is empirical Bayes shrinkage; it never
// treats 3/3 as certainty and it corrects the bias of selecting items on the baseline
// alone (docs/gate-trust.md).
//
// For the candidate's mean y_i over its M_i runs, the model predicts, if nothing
// changed, the mean μ̂_i (posterior mean of p_i) and the variance
//
//	V_i = λ·E[p(1 − p) | baseline]/M_i + Var(p | baseline)
//
// where the second term is the baseline's own uncertainty about the item. Then:
//
//   - the estimated drop is Σ(μ̂_i − y_i)/n, in points of the whole suite, with
//     standard error √(ΣV_i)/n. It is unbiased for any change, wherever it lands: a
//     shift of flaky items' pass rates counts in full, never pooled away as noise;
//   - two test statistics. The precision-weighted Z = Σ(μ̂_i − y_i)/V_i / √(Σ1/V_i):
//     a stable item that now fails moves it a lot, a flip of an item that already
//     flipped moves it little, so it finds stable items breaking. The unweighted
//     Z_u = Σ(μ̂_i − y_i)/√(ΣV_i), the estimated drop over its standard error, weighs
//     every item alike, so it finds a shift of the flaky items' pass rates, which the
//     weighted statistic barely counts;
//   - each is read against the normal distribution with a Cornish–Fisher correction for
//     its skewness (a handful of stable items failing is a count, not a bell curve),
//     giving p_w and p_u, and the one-sided p-value of "no drop" is the weighted
//     Bonferroni combination min(p_w/(1 − β), p_u/β) with β = Share(df): the test
//     at level α rejects when the weighted statistic does at (1 − β)·α or the
//     unweighted one at β·α, so the two looks together keep the level α. β grows with
//     the degrees of freedom the runs' spread is known to (Share), fixed before the
//     candidate is read.
//
// Everything is closed form and one pass over the items after the prior: O(n) time, and
// with EvidenceAccumulator O(1) memory per item besides the K largest contributions.

// Prior is the suite's distribution of per-item true scores, fitted to the baseline:
// a distribution on a grid of GridPoints values in (0, 1), found by maximum likelihood
// from the items' baseline runs (the nonparametric empirical Bayes of Kiefer and
// Wolfowitz, fitted by EM) and lightly smoothed so that every value keeps some weight.
// The grid stops short of 0 and 1 and the smoothing keeps weight everywhere: no item is
// ever certain to pass or fail again.
type Prior struct {
	// Lambda is the per-run variance of an item's score as a fraction of p·(1 − p):
	// 1 for pass/fail scores, less for graded scores.
	Lambda float64 `json:"lambda"`
	// Items is the number of baseline items the prior was fitted on.
	Items int `json:"items"`
	// Mean is the prior's mean: the suite's expected item score.
	Mean float64 `json:"mean"`
	// Weights is the distribution's weight on each grid value (Prior.at(g)).
	Weights []float64 `json:"-"`

	// end is where the grid's end values sit: 0 for the grid's own 0.5 % from 0 and 1
	// (the test's prior), EndValue for the estimate's prior.
	end float64
	// est is the estimate's prior, fitted to the same items on the grid whose ends are
	// at EndValue and calibrated to hold their mean (calibrate.go); nil for an
	// estimate's prior itself. rep is the same fit before the calibration, which the
	// replication test reads (an all-pass suite's calibration pushes nearly all the
	// mass to the end value, far surer than three runs make a re-run's pass).
	est, rep *Prior

	cache map[int]*postRow // per run count, per rounded mean
}

// postRow caches the posteriors of one run count, by rounded mean.
type postRow struct {
	post [meanBins + 1]posterior
	ok   [meanBins + 1]bool
}

// GridPoints is the number of values the prior's distribution is fitted on: p = (g +
// 0.5)/GridPoints, from 0.005 to 0.995.
const GridPoints = 100

// emIterations bounds the EM fit; it is a fixed count, so the fit is deterministic.
const emIterations = 300

// Smoothing is the pseudo-count each grid value gets in the fit, in items: with the
// whole grid it weighs as one item, which matters only for small suites (a five-item
// suite that passed every run still gives a stable item a chance of about 1 % to fail).
const Smoothing = 1.0 / GridPoints

// MinLambda bounds Prior.Lambda from below, so a suite whose items never varied in the
// baseline is not read as noiseless.
const MinLambda = 0.05

// meanBins is how finely item means are grouped for the fit: 1/meanBins.
const meanBins = 600

// groupKey groups baseline items with the same run count and (rounded) mean.
type groupKey struct {
	runs int
	mean int // round(mean·meanBins)
}

func keyOf(mean float64, runs int) groupKey {
	return groupKey{runs: runs, mean: int(math.Round(mean * meanBins))}
}

// PriorFit accumulates baseline items for Prior, one at a time, in bounded memory: a
// count per (runs, rounded mean), at most meanBins + 1 per run count.
type PriorFit struct {
	n                 int
	groups            map[groupKey]int
	sumVar, sumBinVar float64
}

// Add counts one baseline item: the mean of its per-run scores, their sample variance
// (n − 1 in the denominator; 0 with one run) and the number of runs.
func (f *PriorFit) Add(mean, variance float64, runs int) {
	if f.groups == nil {
		f.groups = map[groupKey]int{}
	}
	f.n++
	f.groups[keyOf(mean, runs)]++
	if runs >= 2 {
		f.sumVar += variance
		f.sumBinVar += mean * (1 - mean) * float64(runs) / float64(runs-1) // unbiased p(1−p) for 0/1 scores
	}
}

// Prior returns the fitted prior, with the estimate's prior inside it.
//
// Two fits of one model. The test reads each item against the prior on the grid that
// stops at 0.5 % from 0 and 1, so no item is certain to pass again and a handful of
// failures in a small suite that never failed is weighed with caution. The estimated
// drop reads each item against the prior on the grid whose end values sit at EndValue:
// an item that never failed in a suite whose items never fail is predicted to pass,
// not 0.5 % short of it, so an all-pass suite that did not change is estimated at no
// drop (the 0.995 grid end read it as an improvement of about 0.5 pts at every size).
func (f *PriorFit) Prior() Prior {
	p := f.fit(0)
	rep := f.fit(EndValue)
	est := rep
	est.Weights, est.cache = append([]float64(nil), rep.Weights...), map[int]*postRow{}
	f.calibrate(&est) // calibrate.go: the estimate holds the baseline's mean
	p.est, p.rep = &est, &rep
	return p
}

// fit fits the prior on the grid whose end values are at end (0: the grid's own). λ compares the items' observed spread with the
// spread pass/fail scores of the same means would have; the distribution is fitted by
// EM with each item's runs read as runs/λ coin flips (a graded run says more than a
// coin flip about the item's true score).
func (f *PriorFit) fit(end float64) Prior {
	p := Prior{Items: f.n, Lambda: 1, Weights: make([]float64, GridPoints), cache: map[int]*postRow{}, end: end}
	if f.sumBinVar > 0 {
		p.Lambda = math.Min(1, math.Max(MinLambda, f.sumVar/f.sumBinVar))
	}
	for g := range p.Weights {
		p.Weights[g] = 1.0 / GridPoints
	}
	if f.n == 0 {
		p.Mean = 0.5
		return p
	}
	// EM starts from the items' own means (each group's count on the grid value nearest
	// its mean, plus the smoothing): the fit then only has to move mass, not find it,
	// which a fixed number of EM steps does reliably.
	start := float64(f.n) + Smoothing*GridPoints
	for g := range p.Weights {
		p.Weights[g] = Smoothing / start
	}
	for k, c := range f.groups {
		g := min(GridPoints-1, int(float64(k.mean)/meanBins*GridPoints))
		p.Weights[g] += float64(c) / start
	}
	keys := f.sortedKeys()
	lik := make([][]float64, len(keys)) // per group: likelihood on the grid, scaled to max 1
	for i, k := range keys {
		lik[i] = p.likelihood(float64(k.mean)/meanBins, k.runs)
	}
	next := make([]float64, GridPoints)
	total := float64(f.n) + Smoothing*GridPoints
	for range emIterations {
		for g := range next {
			next[g] = Smoothing
		}
		for i, k := range keys {
			var z float64
			for g, l := range lik[i] {
				z += p.Weights[g] * l
			}
			if z == 0 {
				continue
			}
			c := float64(f.groups[k]) / z
			for g, l := range lik[i] {
				next[g] += c * p.Weights[g] * l
			}
		}
		for g := range next {
			p.Weights[g] = next[g] / total
		}
	}
	for g, w := range p.Weights {
		p.Mean += w * p.at(g)
	}
	return p
}

// sortedKeys returns the fit's groups in a fixed order: map order must not change a
// float sum.
func (f *PriorFit) sortedKeys() []groupKey {
	keys := make([]groupKey, 0, len(f.groups))
	for k := range f.groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].runs != keys[j].runs {
			return keys[i].runs < keys[j].runs
		}
		return keys[i].mean < keys[j].mean
	})
	return keys
}

// EndValue is where the estimate's prior puts the grid's end values: 0.005 % from 0
// and 1 (the test's grid ends at 0.5 %), so an item that never fails in a suite whose
// items never fail is predicted to pass, not 0.5 % short of it.
const EndValue = 0.00005

// grid is the g-th value of the prior's grid.
func grid(g int) float64 { return (float64(g) + 0.5) / GridPoints }

// at is the g-th value of this prior's grid: grid(g), with the end values at p.end when
// it is set.
func (p Prior) at(g int) float64 {
	switch {
	case p.end > 0 && g == 0:
		return p.end
	case p.end > 0 && g == GridPoints-1:
		return 1 - p.end
	}
	return grid(g)
}

// estimate is the prior the estimated drop reads: the estimate's prior when p carries
// one, else p.
func (p Prior) estimate() Prior {
	if p.est != nil {
		return *p.est
	}
	return p
}

// replication is the prior the replication test reads: the estimate's fit before its
// calibration when p carries one, else p.
func (p Prior) replication() Prior {
	if p.rep != nil {
		return *p.rep
	}
	return p
}

// likelihood is, on the grid, the likelihood of an item's baseline mean over runs: a
// binomial in runs/λ trials, scaled so its largest value is 1.
func (p Prior) likelihood(mean float64, runs int) []float64 {
	eff := float64(runs) / p.Lambda
	x := eff * mean
	out := make([]float64, GridPoints)
	best := math.Inf(-1)
	for g := range out {
		q := p.at(g)
		out[g] = x*math.Log(q) + (eff-x)*math.Log(1-q)
		best = math.Max(best, out[g])
	}
	for g := range out {
		out[g] = math.Exp(out[g] - best)
	}
	return out
}

// posterior is what the prior and an item's baseline runs say about its true score.
type posterior struct {
	mean  float64 // E[p]
	pq    float64 // E[p(1 − p)]
	varP  float64 // Var(p)
	skew1 float64 // skewness of one run's score about mean, for pass/fail scores
}

// Posterior returns the item's posterior mean score given its baseline mean over runs.
func (p Prior) Posterior(baseMean float64, runs int) float64 {
	return p.posterior(baseMean, runs).mean
}

func (p Prior) posterior(baseMean float64, runs int) posterior {
	k := keyOf(baseMean, runs)
	row := p.cache[runs]
	if row != nil && row.ok[k.mean] {
		return row.post[k.mean]
	}
	lik := p.likelihood(float64(k.mean)/meanBins, runs)
	var z, m1, m2 float64
	for g, l := range lik {
		w := p.Weights[g] * l
		q := p.at(g)
		z += w
		m1 += w * q
		m2 += w * q * q
	}
	m1, m2 = m1/z, m2/z
	post := posterior{mean: m1, pq: m1 - m2, varP: math.Max(0, m2-m1*m1)}
	if m1 > 0 && m1 < 1 {
		post.skew1 = (2*m1 - 1) / math.Sqrt(m1*(1-m1))
	}
	if p.cache != nil {
		if row == nil {
			row = &postRow{}
			p.cache[runs] = row
		}
		row.post[k.mean], row.ok[k.mean] = post, true
	}
	return post
}

// Observation is one item's candidate side for the evidence measurement, with the
// baseline figures it is compared against.
type Observation struct {
	// Index identifies the item to the caller (its position in the suite).
	Index int
	// BaseMean and BaseRuns are the baseline's mean score and run count for the item.
	BaseMean float64
	BaseRuns int
	// CandMean is the candidate's mean score over CandRuns ≥ 1 runs; run counts may
	// differ from item to item (a re-run of a few items adds runs to those only).
	CandMean float64
	CandRuns int
	// BaseVar is the sample variance of the item's baseline runs (0 with one run), and
	// BaseBits, when HasBits, its per-run pass/fail scores (bit r: run r passed), for
	// the run-level noise (runnoise.go).
	BaseVar  float64
	BaseBits uint64
	HasBits  bool
	// CandBits, when CandHasBits, are the item's per-run pass/fail scores in the
	// candidate's CandBitRuns ≥ 2 full runs (bit r: run r passed): with them the
	// candidate's runs measure the weighted statistic's run-level noise.
	CandBits    uint64
	CandBitRuns int
	CandHasBits bool
	// Rounds, when the item was re-run, are its scores in each re-run (NaN: not in that
	// one), and FullMean and FullRuns ≥ 1 its mean over the candidate's full runs: the
	// replication test (replication.go) reads the rounds apart.
	Rounds   []float64
	FullMean float64
	FullRuns int
	// Flipped says the item's pass/fail result varied between the baseline's runs.
	// Settle re-runs such an item only for the estimate's sake, chosen by the baseline
	// alone (settle.NoisyItems), so its re-runs average with its full runs in the
	// estimate; an item that did not flip is re-run only because of how it scored
	// (settle.RerunEvidence), and the estimate reads its full runs alone.
	Flipped bool
}

// Contribution is one item's share of the evidence: how far the candidate fell below
// what the baseline predicts, in units of the predicted noise.
type Contribution struct {
	Index int `json:"-"`
	// Predicted is the posterior mean score the baseline predicts for the candidate.
	Predicted float64 `json:"predicted"`
	// Z is (Predicted − CandMean)/√V: positive when the candidate did worse than
	// predicted. An item with Z above about 2 is evidence of a drop on its own.
	Z float64 `json:"z"`
	// Weight is the item's share of the test statistic: its term in Z·√(Σ1/V).
	Weight float64 `json:"weight"`
}

// EvidenceResult is the measurement of a candidate against a baseline.
type EvidenceResult struct {
	Prior Prior `json:"prior"`
	// Items is the number of items measured.
	Items int `json:"items"`
	// PredictedMean is the mean of the items' posterior means under the estimate's
	// prior (Prior.est): what the baseline
	// predicts the candidate scores if nothing changed. CandMean is the candidate's mean.
	PredictedMean float64 `json:"predicted_mean"`
	CandMean      float64 `json:"candidate_mean"`
	// Drop is the estimated drop, absolute points of the 0–1 score (0.02 = 2 pts):
	// PredictedMean − CandMean. SE is its standard error under "nothing changed".
	Drop float64 `json:"drop"`
	SE   float64 `json:"se"`
	// Z is the precision-weighted test statistic and Skew its skewness under "nothing
	// changed", PW its one-sided p-value (Cornish–Fisher corrected); ZU, SkewU and PU
	// the same of the unweighted statistic. PValue is the one-sided p-value of "no
	// drop", the two combined: min(PW/(1 − β), PU/β), at most 1, with β =
	// UnweightedShare (Share).
	Z      float64 `json:"z"`
	Skew   float64 `json:"skew"`
	PW     float64 `json:"p_weighted"`
	ZU     float64 `json:"z_unweighted"`
	SkewU  float64 `json:"skew_unweighted"`
	PU     float64 `json:"p_unweighted"`
	PValue float64 `json:"p_value"`
	// UnweightedShare is β, the share of the test's level the unweighted statistic
	// gets (Share of DF).
	UnweightedShare float64 `json:"unweighted_share"`
	// PItem is the p-value the items alone give, without the run-level guard: the
	// replication test's when there are re-runs (fresh draws), else the evidence test's.
	// A drop significant at item level whose size may be over max_drop is inconclusive,
	// not a pass, even where the guard keeps it from blocking.
	PItem float64 `json:"p_item"`
	// Replication is the replication test over the re-run items (replication.go); nil
	// without re-runs. With it, PValue is min(1, 2·min(PEvidence, its own)): the
	// evidence test's p-value (all runs averaged) and its own, Bonferroni-combined.
	Replication *Replication `json:"replication,omitempty"`
	PEvidence   float64      `json:"p_evidence,omitempty"`
	// RunNoise is the run-level noise measured from the runs (runnoise.go). DF is the
	// runs' pooled degrees of freedom when there are runs to compare: SE then holds the
	// run-level part and the interval reads Student's t on DF. 0: no runs to compare,
	// SE is the item-level one and the interval is ±1.96·SE.
	RunNoise *RunNoise `json:"run_noise,omitempty"`
	DF       float64   `json:"df,omitempty"`
	// GuardW and GuardU are the run-level guard's one-sided p-values of the weighted
	// and unweighted statistics (runGuard); PW is at least GuardW, PU at least
	// GuardFactor times GuardU. 0 without
	// runs to compare (a one-run baseline and a one-run candidate, no history).
	GuardW float64 `json:"p_run_weighted,omitempty"`
	GuardU float64 `json:"p_run_unweighted,omitempty"`
	// PThin is set when the full runs are thin (thin.go): the guard's spread known to
	// fewer than SharedDF degrees of freedom. It is the look's p-value with the evidence
	// test's run-level variance at its upper bound at 1 − ThinGamma, read against the
	// normal (with re-runs, that p-value in place of the evidence test's in the
	// combination with the replication test): at or over the level, one run that was
	// bad as a whole, within what the baseline's few runs allow, could explain the
	// drop, and a block waits for a re-run that repeats it. 0 otherwise.
	PThin float64 `json:"p_thin_runs,omitempty"`
	// ThinGamma is the level of PThin's bound: the run-level variance at its upper
	// bound at 1 − ThinGamma (0 when PThin is not set).
	ThinGamma float64 `json:"thin_gamma,omitempty"`
	// Exact says PW and PU are the exact tails of a one-run pass/fail candidate
	// (exacttail.go), not Cornish–Fisher readings.
	Exact bool `json:"exact,omitempty"`
	// SumPQ and SumVarP are ΣλE[p(1−p)] and ΣVar(p) over the items: with them the
	// standard error for any number of candidate runs M is √(SumPQ/M + SumVarP)/Items.
	SumPQ   float64 `json:"sum_pq"`
	SumVarP float64 `json:"sum_var_p"`
	// Top are the items with the largest contributions, largest first.
	Top []Contribution `json:"top"`
}

// HalfWidth95 is the half-width of the estimated drop's 95 % interval: 1.96·SE, or
// Student's t quantile when a run-level component known to few degrees of freedom is in
// SE.
func (r EvidenceResult) HalfWidth95() float64 {
	if r.DF > 0 {
		return StudentQuantile(0.975, r.DF) * r.SE
	}
	return Z95 * r.SE
}

// SEForRuns is the standard error of Drop had every item M candidate runs.
func (r EvidenceResult) SEForRuns(m int) float64 {
	if r.Items == 0 || m < 1 {
		return math.NaN()
	}
	return math.Sqrt(r.SumPQ/float64(m)+r.SumVarP) / float64(r.Items)
}

// EvidenceAccumulator measures the evidence one item at a time, keeping the K largest
// contributions: O(1) memory per item, for suites read as a stream.
type EvidenceAccumulator struct {
	prior             Prior
	est               Prior // the estimate's prior (Prior.est)
	repPrior          Prior // the replication test's prior (Prior.rep)
	k                 int
	n                 int
	sumPred, sumCand  float64
	sumV, sumW, sumWE float64
	sumVEst           float64 // ΣV of the estimate's reading (SelectedZ)
	sumW3M3           float64
	sumE, sumM3       float64 // the unweighted statistic's Σe and third moment
	sumWP, sumP       float64 // Σw·p̂ and Σp̂: an outage's share of each statistic (thin.go)
	sumPQ, sumVarP    float64
	sumW2PQ           float64 // Σw²·pq: the model's item-level variance of a run's weighted sum
	sumWPQ            float64 // Σw·pq: how a shift that tips borderline items moves the weighted sum
	// coins are the items of a one-run pass/fail candidate, for the exact tails
	// (exacttail.go); noCoins once an item is not one, or there are too many.
	coins   []coin
	noCoins bool
	// rs and groups measure the run-level noise (cs: the candidate's full runs' per-run
	// scores); minBase and minCand are the fewest baseline and candidate runs of an item.
	rs, cs           runSums
	groups           []RunGroup
	minBase, minCand int
	top              *topk.Keeper[Contribution]
	// rep is the replication test over the re-run items, tot the suite's shape sums.
	rep replication
	tot shapes
	// pat counts the pass/fail items' patterns over their baseline and full runs, and
	// reruns holds the re-run items until they are all counted (replication_bound.go).
	pat    patterns
	reruns []rerunItem
	err    error
}

// NewEvidenceAccumulator starts a measurement under prior keeping the top k items.
func NewEvidenceAccumulator(prior Prior, k int) *EvidenceAccumulator {
	return &EvidenceAccumulator{prior: prior, est: prior.estimate(), repPrior: prior.replication(), k: k, top: topk.New(k, weighsMore)}
}

// Add measures one item.
func (a *EvidenceAccumulator) Add(o Observation) {
	if a.err != nil {
		return
	}
	if o.BaseRuns < 1 || o.CandRuns < 1 {
		a.err = fmt.Errorf("item %d: %d baseline and %d candidate runs; want at least 1 each", o.Index, o.BaseRuns, o.CandRuns)
		return
	}
	if !(o.BaseMean >= 0 && o.BaseMean <= 1 && o.CandMean >= 0 && o.CandMean <= 1) {
		a.err = fmt.Errorf("item %d: scores %v and %v; want both in [0, 1]", o.Index, o.BaseMean, o.CandMean)
		return
	}
	post := a.prior.posterior(o.BaseMean, o.BaseRuns)
	predicted := a.est.posterior(o.BaseMean, o.BaseRuns).mean // the estimate's prediction
	m := float64(o.CandRuns)
	pq := a.prior.Lambda * post.pq
	v := pq/m + post.varP
	e := post.mean - o.CandMean
	// An item re-run because its full runs fell (SelectedZ): the estimate reads its full
	// runs alone, the evidence test all its runs, and its re-runs are also the
	// replication test's. An item re-run that did not flip in the baseline was chosen
	// by how it scored as well (settle re-runs a flipped item only for the estimate's
	// sake): the estimate reads its full runs alone. Averaging its re-runs in would
	// retry the items that failed while the lucky passes stand, and bias the estimate
	// toward no drop. Others (flipped items re-run for the estimate's sake, or items
	// not re-run) average all their runs everywhere.
	rounds := o.Rounds
	candEst, vEst := o.CandMean, v
	rerun := len(rounds) > 0 && o.FullRuns > 0
	switch {
	case rerun && chosenByFullRuns(post, a.prior.Lambda, o.FullMean, o.FullRuns):
		candEst, vEst = o.FullMean, pq/float64(o.FullRuns)+post.varP
	case rerun && !o.Flipped:
		candEst, vEst = o.FullMean, pq/float64(o.FullRuns)+post.varP
		rounds = nil
	default:
		rounds = nil
	}
	a.n++
	a.sumPred += predicted
	a.sumCand += candEst
	a.sumVEst += vEst
	a.sumV += v
	a.sumPQ += pq
	a.sumW2PQ += pq / (v * v)
	a.sumWPQ += pq / v
	a.sumVarP += post.varP
	w := 1 / v
	a.sumW += w
	a.sumWE += w * e
	a.sumWP += w * post.mean
	a.sumP += post.mean
	// Third central moment of e: a run's skewness shrinks as 1/√M over M runs.
	skew := post.skew1 / math.Sqrt(m/a.prior.Lambda)
	m3 := skew * math.Pow(v, 1.5)
	a.sumW3M3 += w * w * w * m3
	a.sumE += e
	a.sumM3 += m3
	a.rs.add(w, o.BaseVar, o.BaseBits, o.BaseRuns, o.HasBits)
	a.cs.add(w, bitsVariance(o.CandBits, o.CandBitRuns), o.CandBits, o.CandBitRuns, o.CandHasBits)
	a.tot.add(post, w)
	full, fullRuns := o.CandMean, o.CandRuns
	if o.FullRuns > 0 {
		full, fullRuns = o.FullMean, o.FullRuns
	}
	if a.prior.Lambda >= ExactMinLambda {
		a.pat.add(o.BaseMean, o.BaseRuns, full, fullRuns)
	}
	if len(rounds) > 0 && o.FullMean >= 0 && o.FullMean <= 1 {
		// Nothing changed: the baseline's and the full runs are draws of one p. The
		// item is read once the suite's patterns are all counted (replication_bound.go).
		a.reruns = append(a.reruns, rerunItem{base: o.BaseMean, baseRuns: o.BaseRuns, full: o.FullMean,
			fullRuns: o.FullRuns, rounds: rounds, w: w, post: post})
	}
	if a.n == 1 || o.BaseRuns < a.minBase {
		a.minBase = o.BaseRuns
	}
	if a.n == 1 || o.CandRuns < a.minCand {
		a.minCand = o.CandRuns
	}
	if !a.noCoins {
		if o.CandRuns == 1 && (o.CandMean == 0 || o.CandMean == 1) && a.prior.Lambda >= ExactMinLambda && len(a.coins) < ExactTailItems {
			a.coins = append(a.coins, coin{w: w, q: 1 - post.mean, failed: o.CandMean == 0})
		} else {
			a.coins, a.noCoins = nil, true
		}
	}
	if a.k > 0 {
		c := Contribution{Index: o.Index, Predicted: post.mean, Z: e / math.Sqrt(v), Weight: w * e}
		a.top.Offer(c)
	}
}

// RunGroups adds groups of runs of one system known by their run means (the baseline's,
// with Source BaselineSource; the candidate's full runs; the history's releases) to the
// run-level noise's measurement.
func (a *EvidenceAccumulator) RunGroups(groups ...RunGroup) {
	a.groups = append(a.groups, groups...)
}

// Result returns the measurement; an error for malformed input or no items.
func (a *EvidenceAccumulator) Result() (EvidenceResult, error) {
	if a.err != nil {
		return EvidenceResult{}, a.err
	}
	if a.n == 0 {
		return EvidenceResult{}, errors.New("no items to measure")
	}
	n := float64(a.n)
	r := EvidenceResult{Prior: a.prior, Items: a.n, PredictedMean: a.sumPred / n, CandMean: a.sumCand / n,
		SumPQ: a.sumPQ, SumVarP: a.sumVarP}
	r.Drop = r.PredictedMean - r.CandMean
	r.SE = math.Sqrt(a.sumVEst) / n
	r.Z = a.sumWE / math.Sqrt(a.sumW)
	r.Skew = a.sumW3M3 / math.Pow(a.sumW, 1.5)
	r.ZU = a.sumE / math.Sqrt(a.sumV)
	r.SkewU = a.sumM3 / math.Pow(a.sumV, 1.5)
	r.PW = 1 - normalCDF(cornishFisher(r.Z, r.Skew))
	r.PU = 1 - normalCDF(cornishFisher(r.ZU, r.SkewU))
	rn := a.rs.measure(a.groups, a.n, &a.cs, math.Max(a.tippingScale(), a.outageScale()))
	if !a.noCoins {
		if pw, pu, ok := exactTails(a.coins); ok {
			r.PW, r.PU, r.Exact = pw, pu, true
		}
	}
	r.UnweightedShare = Share(rn.DF)
	r.PItem = CombineP(r.PW, r.PU, r.UnweightedShare)
	if rn.DF > 0 {
		r.RunNoise = &rn
	}
	if rn.DF > 0 && !rn.Still {
		// The run-level guard (runnoise.go), always on when runs of one system can be
		// compared: each statistic must also stand out from the runs' own spread.
		f := 1/float64(max(a.minCand, 1)) + 1/float64(max(a.minBase, 1))
		r.GuardW = runGuard(a.sumWE, candidateFloor(a.sumW, a.sumW2PQ, rn.CandWithinWeighted, a.minCand), rn.Weighted*f, rn.WeightedDF, r.Skew)
		aU, bU := candidateFloor(a.sumV, a.sumPQ, rn.CandWithinSum, a.minCand), rn.Variance*n*n*f
		if rn.DF >= SharedDF && rn.SpreadSum > 0 {
			aU, bU = spreadVariance(aU, rn.Within*n*n, rn.SpreadSum, f, rn.DF), 0
		}
		r.GuardU = runGuard(a.sumE, aU, bU, rn.DF, r.SkewU)
		r.PW, r.PU = math.Max(r.PW, r.GuardW), math.Max(r.PU, math.Min(1, GuardFactor*r.GuardU))
		r.SE = math.Sqrt(r.SE*r.SE + rn.Variance*f)
		r.DF = float64(rn.DF)
		if rn.DF < SharedDF {
			r.PThin = thinP(a.sumWE, a.sumW, a.sumE, a.sumV, a.outageScale(), rn, f, r)
			r.ThinGamma = rn.ThinLevel
		}
	}
	if rn.DF == 0 {
		// No runs to compare (one baseline run, one candidate run, no history): the
		// look is as thin as it gets, and its bound is the assumed one (thin.go).
		rn.ThinSum = upperVariance(0, a.sumPQ, UnmeasuredDF, ThinGamma)
		r.ThinGamma = ThinGamma
		r.PThin = thinP(a.sumWE, a.sumW, a.sumE, a.sumV, a.outageScale(), rn, 1/float64(max(a.minCand, 1))+1/float64(max(a.minBase, 1)), r)
	}
	r.PValue = CombineP(r.PW, r.PU, r.UnweightedShare)
	for _, it := range a.reruns {
		a.rep.add(a.replicationPost(it), it.rounds, a.prior.Lambda, it.w, it.post)
	}
	a.reruns = nil
	if a.rep.items > 0 {
		var noise *RunNoise
		if rn.DF > 0 {
			noise = &rn
		}
		rp := a.rep.result(noise, a.tot, r.UnweightedShare)
		r.Replication = &rp
		r.PItem = rp.PItem
		r.PEvidence = r.PValue
		r.PValue = math.Min(1, 2*math.Min(r.PValue, rp.PValue))
		if r.PThin > 0 {
			// The full runs are still thin: the evidence test, which averages the
			// re-runs into runs whose shared shift stays in them, is read at the thin
			// bound; the replication test reads the re-runs apart.
			r.PThin = math.Min(1, 2*math.Min(r.PThin, rp.PValue))
		}
	}
	r.Top = a.top.Best()
	return r, nil
}

// ExactMinLambda is the smallest Prior.Lambda the exact tails apply to: scores that
// vary from run to run as pass/fail scores do (λ = 1).
const ExactMinLambda = 0.99

// UnweightedShare is β, the share of the test's level the unweighted statistic gets
// (CombineP), when the runs' spread is known to SharedDF degrees of freedom or more
// (three candidate runs beside a three-run baseline, or a history): half the level
// each, 2.5 % at the default 5 %.
const UnweightedShare = 0.5

// FewRunsShare is β when the runs' spread is known to fewer than SharedDF degrees of
// freedom (one candidate run beside a three-run baseline: 2), or not at all: at the
// default 5 %, 1.75 % for the unweighted statistic and 3.25 % for the weighted one.
const FewRunsShare = 0.35

// SharedDF is the degrees of freedom of the runs' spread from which the two
// statistics share the level equally.
const SharedDF = 4

// Share is β for a run-level guard on df degrees of freedom (0: no guard). The
// unweighted statistic finds a shift of the flaky items' pass rates, which is also what
// a run-level shift looks like, so its guard is what holds it back: on 2 degrees of
// freedom Student's t needs a statistic of 5.2 to reject at 1.75 % (3.7 at 3.25 %),
// which it rarely reaches, and most of the level is better spent on the weighted
// statistic (stable items breaking); on 4 or more (t of 2.8 at 2.5 %) the unweighted
// statistic can reject a 4-pt drop of flaky items, and the two share alike.
// β depends on the runs' count alone, fixed before the candidate's scores are read, so
// the combination keeps its level.
func Share(df int) float64 {
	if df >= SharedDF {
		return UnweightedShare
	}
	return FewRunsShare
}

// CombineP is the weighted Bonferroni combination of the weighted statistic's p-value
// pw and the unweighted one's pu: min(pw/(1 − β), pu/β, 1) with β = share. It is below
// α exactly when pw < (1 − β)·α or pu < β·α, and under "nothing changed" that happens
// with probability at most α whatever the two statistics' dependence.
func CombineP(pw, pu, share float64) float64 {
	return math.Min(1, math.Min(pw/(1-share), pu/share))
}

// cornishFisher maps a statistic with skewness g to the standard normal scale: the
// inverse of the first-order expansion z + g(z² − 1)/6, kept monotone beyond the vertex.
func cornishFisher(z, g float64) float64 {
	g = clampSkew(g)
	if g == 0 {
		return z
	}
	// Solve q + g(q² − 1)/6 = z for q on the increasing branch:
	// a·q² + q − (a + z) = 0 with a = g/6, so q = (−1 + √(1 + 4a(a + z)))/(2a).
	a := g / 6
	d := 1 + 4*a*(a+z)
	if d < 0 {
		// Beyond the branch's end (z far in the tail opposite to the skew).
		return -1 / (2 * a)
	}
	return (-1 + math.Sqrt(d)) / (2 * a)
}

// clampSkew keeps the first-order correction in the range where it is reliable.
func clampSkew(g float64) float64 { return math.Max(-1, math.Min(1, g)) }

// normalCDF is the standard normal distribution function.
func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// NormalQuantile is the standard normal quantile function (the inverse of the normal
// distribution function).
func NormalQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// weighsMore ranks the larger evidence weight first; ties: the earlier item.
func weighsMore(a, b Contribution) bool {
	if a.Weight != b.Weight {
		return a.Weight > b.Weight
	}
	return a.Index < b.Index
}
