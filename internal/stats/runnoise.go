package stats

import "math"

// Run-level noise: some runs are worse (or better) across many items at once (a
// provider's bad day, rate limiting, a drifting judge). The item-level model
// (evidence.go) reads runs as independent draws of each item, so it would take a bad
// candidate run for a regression. The run-level component is measured from runs known
// to share one system: the baseline's runs, the candidate's runs and the runs of
// earlier releases in the suite's history.
//
// For a group of k ≥ 2 runs of one system, the sample variance of the runs' suite sums
// (Σ over items of the item's score in the run) is, in expectation, the item-level part
// Σσ²_i plus the run-level part τ², the variance of the shared shift a run adds to the
// sum. The same holds for any weighting of the items: the precision-weighted sum
// Σw_i·x_ir has item-level part Σw²_i·σ²_i and run-level part τ²_w. The baseline's
// per-run pass bits (pass/fail scores) give the weighted sums directly; groups known only
// by their run means (the candidate's runs, the history's releases, a graded baseline)
// are translated to the weighted scale by ρ = Σw²_i·s²_i / Σs²_i, the weighted share of
// the item-level variance (the run-level noise taken to hit items in proportion to
// their own noise), or by the larger scale of a shift shared by the whole run, which
// moves items the baseline's runs never saw vary: a logit shift (a drifting judge:
// each item moved in proportion to p(1 − p), (Σw·pq/Σpq)²) or an outage (every item
// scaled down, (Σw·p̂/Σp̂)²). Without per-run scores the weighted sums cannot show
// which, and a judge drifting from run to run on graded scores, read by ρ from the
// observed spread alone, blocked 11 % of unchanged pull requests with three runs
// (bench/verdict, 200 trials; 0.5 % with the larger scale).
//
// The run-level guard. Three runs say little about a variance (2 degrees of freedom),
// and a switch that counts the component only when the runs' spread looks significant
// leaks: the baseline's three runs agree by chance often enough (P(S² ≤ W) = 1 −
// exp(−W/σ²) with 2 df, about 20 % at a 3-pt spread) that a bad candidate run then
// reads as a regression. So the guard is always on when there are runs to compare, and
// it works on the statistic that decides: each linear statistic L = Σa_i·e_i of the
// evidence test (the precision-weighted one, a = w; the unweighted one, a = 1) has, per
// run, an item-level variance W_a (known from the model) and a run-level one τ²_a
// (estimated, τ̂²_a = max(0, S²_a − W_a) pooled over the groups of runs, df = Σ(k − 1)).
// The guard reads
//
//	T = L / √(Var_item(L) + τ̂²_a·(1/F + 1/B))
//
// against Student's t with the pooled df (F and B the candidate's and the baseline's
// fewest runs of an item), and the t reference pays for estimating the variance from
// few runs, so the guard keeps its level whether or not the runs happened to agree.
// On fewer than SharedDF degrees of freedom (one candidate run) the variance is floored
// at the item-level one; from SharedDF on, runs that spread less than their items
// predict scale the item part down as t reads a sample's own spread (spreadVariance),
// which is what lets three runs find a drop of the flaky items. A block needs the item-level test and
// the guard to reject (EvidenceResult.PW and PU are the larger of the two p-values,
// the unweighted guard's counted GuardFactor times).
// One exception: when no item varied between the baseline's runs and no group of runs
// spread (RunNoise.Still, a small all-pass suite), the runs show nothing to judge
// against and the item-level test decides alone.

// GuardFactor is how many times the unweighted statistic's run-level guard p-value
// counts: its guard rejects at its share of the level over GuardFactor, 1.5 % at the
// default 5 % split evenly (2.5 % each). A shift of a whole run moves the unweighted
// statistic as a drop of the flaky items does (the same items, the same way), so when
// such noise dominates that guard alone stands between it and a block, its t reference
// is then close to exact, and its level is about the rate at which the noise blocks an
// unchanged pull request. Three runs are meant to keep that rate at 2 % or less; the
// guard runs at 1.5 %, not 2 %, because its reference is exact only for run shifts
// that move the sum normally: measured through the real binary (bench/verdict, 400
// trials, three PR runs and a four-release history), a logit shift of whole runs took
// it under 2 % in 3.0 % of unchanged pull requests, its p-values near uniform but a
// little heavy in the tail. At 1.5 % the same trials block 2.0 % (logit shift) and
// 1.5 % (outage), and without the history 1.0–1.2 % under four shapes of run-level
// noise (1.0–2.0 % at 2 %). The price is power against a drop of the flaky items,
// which that guard also reads: with three runs and no history 66 % → 56 % are blocked
// in the simulation, the rest inconclusive, not passed. The weighted statistic's guard keeps its share: measured from the
// candidate's own runs when it has several (2 degrees of freedom with three), it is
// conservative already, and a break of stable items, which that statistic finds, needs
// its power (at a fifth of its share, a 4-pt break with three runs at 200 items was
// blocked in 57 % of trials instead of 83 %).
const GuardFactor = 5.0 / 3

// RunGroup is one group of runs of a single system, by their suite means (0–1); or,
// when only a summary is kept (a history record), their sample std and number.
type RunGroup struct {
	Means []float64
	Std   float64
	Runs  int
	// Source names where the runs came from (a history record's commit), so a caller
	// can leave out a group it already counts.
	Source string
}

// runs is the group's number of runs and the sample variance of its means.
func (g RunGroup) runs() (int, float64) {
	if len(g.Means) > 0 {
		s := SampleStd(g.Means)
		return len(g.Means), s * s
	}
	return g.Runs, g.Std * g.Std
}

// RunNoise is the measured run-level component, in the scale of the suite mean (a
// fraction of the 0–1 score squared: 0.0009 is a run-to-run std of 3 pts).
type RunNoise struct {
	// Variance is τ̂² of a run's suite mean beyond item-level noise (0 when the runs
	// spread no more than item-level noise), Within the variance item-level noise alone
	// gives a run mean, DF the degrees of freedom pooled.
	Variance float64 `json:"variance"`
	Within   float64 `json:"within"`
	DF       int     `json:"df"`
	// Weighted is τ̂²_w, the component in the precision-weighted statistic's sum, and
	// WeightedDF its degrees of freedom. With the baseline's per-run pass/fail scores it
	// is measured from those alone: the weighted sum is dominated by stable items, whose
	// run-level failures (an outage, a shift that tips near-stable items) a group known
	// only by its run means cannot show, and translating such a group by ρ would
	// understate τ̂²_w. Otherwise every group is translated by ρ and DF is its df.
	Weighted   float64 `json:"weighted"`
	WeightedDF int     `json:"weighted_df"`
	// Still says no item's score varied between the baseline's runs (their per-run
	// scores are known and identical) and no group of runs spread: the runs show no
	// noise of any kind to judge a candidate's run against, and the guard stays off
	// (EvidenceResult.Guarded). A suite of 200 items with some flaky ones never has
	// identical runs; a small all-pass suite often does, and there a broken item that
	// fails every re-run must be able to block (re-runs add no run-level df).
	Still bool `json:"still,omitempty"`
	// Groups is how many groups of runs were pooled (the baseline, the candidate, the
	// history's releases).
	Groups int `json:"groups"`
	// UpperWeighted and UpperSum are upper confidence bounds of Weighted and of the
	// unweighted component in the sum's scale (Variance·n²), at 1 − ReplicationGamma:
	// the runs' spread S² (item and run parts) read as σ²·χ²_df/df, σ² ≤
	// S²·df/χ²_df(γ), less the item-level part (replication.go).
	UpperWeighted float64 `json:"-"`
	UpperSum      float64 `json:"-"`
	// ThinWeighted and ThinSum are the same bounds at 1 − ThinLevel (ThinGamma, or
	// ThinGammaVarying where SpreadMinItems or more items varied between the
	// baseline's runs), the size of run-level noise a first look on thin runs must
	// rule out (EvidenceResult.PThin).
	ThinWeighted float64 `json:"-"`
	ThinSum      float64 `json:"-"`
	ThinLevel    float64 `json:"-"`
	// CandWithinWeighted is Σw²·s²_i over the candidate's own runs (s²_i an item's
	// sample variance across them) when they measured Weighted: the item-level
	// variance of a run's weighted sum as the candidate's runs show it, the weighted
	// guard's floor (candidateFloor). 0 otherwise.
	CandWithinWeighted float64 `json:"-"`
	// CandWithinSum is Σs²_i over the candidate's own runs when they measured
	// Weighted: the unweighted guard's floor, as CandWithinWeighted is the weighted one's.
	CandWithinSum float64 `json:"-"`
	// SpreadSum is the pooled sample variance S² of a run's unweighted sum over the
	// groups (item and run parts together, DF degrees of freedom): what Student's t
	// reads the unweighted statistic against when DF ≥ SharedDF (spreadVariance). It
	// is 0 (not measured) when fewer than SpreadMinItems items varied between the
	// baseline's runs.
	SpreadSum float64 `json:"-"`
}

// runSums accumulates the baseline's per-run item scores: the deviation of each run's
// weighted and unweighted sums from the items' own means.
type runSums struct {
	runs     int // the common run count (0: not started)
	off      bool
	t, u     [64]float64 // per run: Σw·d and Σd
	items    int
	sw2s2    float64 // Σw²s² over the items with per-run scores
	ss2      float64 // Σs² over them
	allW2S2  float64 // Σw²s² over all items
	allS2    float64 // Σs² over all items
	allItems int
	varying  int // items whose baseline runs varied (variance > 0)
}

// add counts one item: its weight, its baseline's sample variance and, when known, its
// per-run scores (bit r of bits is run r's pass, runs of them).
func (s *runSums) add(w, variance float64, bits uint64, runs int, known bool) {
	s.allW2S2 += w * w * variance
	s.allS2 += variance
	s.allItems++
	if variance > 0 {
		s.varying++
	}
	if s.off {
		return
	}
	if !known || runs < 2 || runs > 64 || s.runs != 0 && runs != s.runs {
		s.off = true
		return
	}
	s.runs = runs
	var mean float64
	for r := range runs {
		mean += float64(bits >> r & 1)
	}
	mean /= float64(runs)
	var ss float64
	for r := range runs {
		d := float64(bits>>r&1) - mean
		s.t[r] += w * d
		s.u[r] += d
		ss += d * d
	}
	s2 := ss / float64(runs-1)
	s.sw2s2 += w * w * s2
	s.ss2 += s2
	s.items++
}

// direct says every item had per-run scores, over the same runs (at least 2).
func (s *runSums) direct() bool { return !s.off && s.items == s.allItems && s.items > 0 && s.runs >= 2 }

// bitsVariance is the sample variance of runs ≥ 2 per-run pass/fail scores given as
// bits (0 with fewer runs).
func bitsVariance(bits uint64, runs int) float64 {
	if runs < 2 || runs > 64 {
		return 0
	}
	k := 0
	for r := range runs {
		k += int(bits >> r & 1)
	}
	m := float64(k) / float64(runs)
	return m * (1 - m) * float64(runs) / float64(runs-1)
}

// weightedExcess is the group's (k − 1)·(S²_w − W_w) of the weighted sums (their sample
// variance less its item-level part, times the degrees of freedom), in the sum's scale,
// and k − 1.
func (s *runSums) weightedExcess() (float64, int) {
	var st float64
	for r := range s.runs {
		st += s.t[r] * s.t[r]
	}
	return st - float64(s.runs-1)*s.sw2s2, s.runs - 1
}

// measure pools the run-level component over the baseline's per-run sums (when every
// item had them) and the groups, for n items. cand, when every item had its per-run
// scores in two or more of the candidate's full runs, measures the weighted
// statistic's component instead of the baseline's runs: the weights come from the
// baseline, which weighs most the items that never failed in it, so its runs cannot
// show a shift that fails those items (an outage, a bad day tipping near-stable items);
// a fresh run of the candidate's can.
func (s *runSums) measure(groups []RunGroup, n int, cand *runSums, tipping float64) RunNoise {
	nf := float64(n)
	rn := RunNoise{Within: s.allS2 / (nf * nf)}
	direct := s.direct()
	rho := 0.0
	if s.allS2 > 0 {
		rho = s.allW2S2 / s.allS2
	}
	rho = math.Max(rho, tipping)
	// Unweighted, in the sum's scale (n × the run mean): item part Σs².
	var num, numW float64
	df := 0
	dfW := 0
	if direct {
		var su float64
		for r := range s.runs {
			su += s.u[r] * s.u[r]
		}
		num += su - float64(s.runs-1)*s.ss2
		numW, dfW = s.weightedExcess()
		if cand != nil && cand.direct() {
			numW, dfW = cand.weightedExcess()
			rn.CandWithinWeighted = cand.sw2s2
			rn.CandWithinSum = cand.ss2
		}
		df += s.runs - 1
		rn.Groups++
	}
	for _, g := range groups {
		k, v := g.runs()
		if k < 2 || math.IsNaN(v) {
			continue
		}
		if direct && g.Source == BaselineSource {
			continue // counted from the per-run scores
		}
		sum := v * nf * nf // the variance of a run's sum
		num += float64(k-1) * (sum - s.allS2)
		if !direct {
			numW += float64(k-1) * rho * (sum - s.allS2)
		}
		df += k - 1
		rn.Groups++
	}
	rn.DF = df
	if df == 0 {
		return rn
	}
	rn.Variance = math.Max(0, num/float64(df)) / (nf * nf)
	if s.varying >= SpreadMinItems {
		rn.SpreadSum = math.Max(0, num/float64(df)+s.allS2)
	}
	rn.Still = direct && s.ss2 == 0 && rn.Variance == 0
	rn.WeightedDF = df
	if direct {
		rn.WeightedDF = dfW
	}
	rn.Weighted = math.Max(0, numW/float64(rn.WeightedDF))
	rn.UpperSum = upperVariance(num/float64(df), s.allS2, df, ReplicationGamma)
	rn.UpperWeighted = upperVariance(numW/float64(rn.WeightedDF), s.allW2S2, rn.WeightedDF, ReplicationGamma)
	rn.ThinLevel = ThinGamma
	if s.varying >= SpreadMinItems {
		rn.ThinLevel = ThinGammaVarying
	}
	rn.ThinSum = upperVariance(num/float64(df), s.allS2, df, rn.ThinLevel)
	rn.ThinWeighted = upperVariance(numW/float64(rn.WeightedDF), s.allW2S2, rn.WeightedDF, rn.ThinLevel)
	return rn
}

// upperVariance is the upper confidence bound at 1 − gamma of a run-level variance
// whose estimate over df degrees of freedom is excess (the runs' spread S² less the
// item-level part within).
func upperVariance(excess, within float64, df int, gamma float64) float64 {
	s2 := math.Max(0, excess+within)
	return math.Max(0, s2*float64(df)/ChiSquareQuantile(gamma, float64(df))-within)
}

// BaselineSource is RunGroup.Source of the baseline's own runs: left out when the
// baseline's per-run scores already measured them.
const BaselineSource = "baseline"

// runGuard is the run-level guard's one-sided p-value of a statistic (the comment at
// the top): sum its numerator (Σw·e or Σe), a its item-level variance, b ≥ 0 its
// run-level variance τ̂²·(1/F + 1/B), known to df degrees of freedom, skew the item
// part's skewness (its share of the total carries over: a Cornish–Fisher correction
// as the item-level test makes, scaled by (a/(a + b))^1.5).
func runGuard(sum, a, b float64, df int, skew float64) float64 {
	if a+b <= 0 {
		return 0.5
	}
	share := a / (a + b)
	z := sum / math.Sqrt(a+b)
	return 1 - StudentCDF(cornishFisher(z, skew*math.Pow(share, 1.5)), float64(df))
}

// StudentCDF is the distribution function of Student's t with nu degrees of freedom
// (the normal's beyond 1e6).
func StudentCDF(t, nu float64) float64 {
	if nu > 1e6 || math.IsInf(nu, 1) || math.IsNaN(nu) {
		return normalCDF(t)
	}
	x := nu / (nu + t*t)
	tail := 0.5 * regIncBeta(nu/2, 0.5, x)
	if t > 0 {
		return 1 - tail
	}
	return tail
}

// StudentQuantile is the p-quantile of Student's t with nu degrees of freedom, by
// bisection on StudentCDF.
func StudentQuantile(p, nu float64) float64 {
	lo, hi := -1e3, 1e3
	for range 200 {
		mid := (lo + hi) / 2
		if StudentCDF(mid, nu) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by its continued
// fraction (Lentz's method).
func regIncBeta(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	if x > (a+1)/(a+b+2) {
		return 1 - regIncBeta(b, a, 1-x)
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log(1-x))
	const tiny = 1e-300
	f, c, d := 1.0, 1.0, 0.0
	for i := 0; i <= 300; i++ {
		m := float64(i / 2)
		var num float64
		switch {
		case i == 0:
			num = 1
		case i%2 == 0:
			num = m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m))
		default:
			num = -(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1))
		}
		d = 1 + num*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		d = 1 / d
		c = 1 + num/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		cd := c * d
		f *= cd
		if math.Abs(1-cd) < 1e-14 {
			break
		}
	}
	return front * (f - 1) / a
}

// candidateFloor is a run-level guard's item-level variance: the model's, a (each
// item's candidate runs, pq_i/F, and its prediction from the baseline, weighted as the
// statistic weighs them), with the candidate's part raised to what the candidate's own
// runs show when they were measured (CandWithinWeighted, CandWithinSum):
// Σ(weight²·s²_i)/F, s²_i an item's sample variance across its F runs, in place of
// the model's Σ(weight²·pq_i)/F (modelPQ, per run) when larger. The baseline weighs
// most the items that never failed in its runs, and the model predicts them
// near-certain; when the candidate's runs fail them here and there, run after run (an
// outage that struck harder in every candidate run than in any baseline run), its
// three runs can agree by chance, the run-level estimate is then 0 (their spread is no
// more than that within-item part), and the model's variance alone would read those
// failures as a break. A real break fails its items in every run, which adds nothing
// to s²_i.
func candidateFloor(a, modelPQ, within float64, runs int) float64 {
	if within <= modelPQ || runs < 1 {
		return a
	}
	return a + (within-modelPQ)/float64(runs)
}

// SpreadMinItems is how many items must have varied between the baseline's runs for
// the unweighted guard to read the runs' spread against what the items predict
// (spreadVariance). W, the items' prediction, is the sum of their sample variances, on
// about 2 degrees of freedom each with three runs; with few varying items its own error
// makes runs that agree read as quieter than they are. At 50 items with 7 varying
// (gatesim's model A, graded scores, three runs) unchanged pull requests were blocked
// 3.7 % of the time against 2.1 % with the floored reading; from 15 items (30 degrees
// of freedom) W's error is small beside the spread's 4 (gatesim's 200-item suites vary
// in about 22 of their 30 flaky items).
const SpreadMinItems = 15

// SpreadFloorGamma is the lower quantile of S²'s distribution under which
// spreadVariance stops trusting the runs' spread: below χ²_df(γ)/df of the model's
// item-level variance, runs that agree that closely are read as agreeing that closely
// by chance, not as a suite quieter than its items.
const SpreadFloorGamma = 0.01

// spreadVariance is the unweighted guard's variance of its statistic when the runs'
// spread is known to SharedDF degrees of freedom or more and SpreadMinItems items
// varied between the baseline's runs. a is the statistic's
// item-level variance from the model, within the item-level variance of a run's sum
// (Σs² over the baseline's items), spread the runs' pooled S² of a run's sum (item and
// run parts together, df degrees of freedom) and f = 1/F + 1/B. It is the larger of
//
//   - a + (S² − W)·f: the item part plus the run-level part beyond it; and
//   - a·min(1, S²/W): when the runs spread less than their items predict, the model's
//     variance scaled down by as much, as Student's t reads a mean against its sample's
//     own spread.
//
// With no run-level noise S²/W scatters around 1 as χ²_df/df does, on both sides, and
// t on df degrees of freedom is exact for the spread as measured. The guard used to
// floor the variance at a, which paid t's price without the spread's chance to come
// out small: a 4-pt drop of flaky items at 200 items with three runs (3.2 standard
// errors from its items) got past it in 36 % of trials at the guard's 1.5 %, 54 % as t
// reads the spread, and at most 58 % for any test that keeps its level under every
// run-level variance (go run ./bench/guardbound). When run-level
// noise is present the first term is the larger and keeps the guard at its level; the
// statistic's baseline part, shrunk toward the fitted prior, carries at most the
// share f of it. The floor a·χ²_df(γ)/df keeps a degenerate spread (a small suite
// whose runs happen to sum alike) from reading any drop as certain.
func spreadVariance(a, within, spread, f float64, df int) float64 {
	d := float64(df)
	v := math.Max(a+(spread-within)*f, a*ChiSquareQuantile(SpreadFloorGamma, d)/d)
	if within > 0 {
		v = math.Max(v, a*math.Min(1, spread/within))
	}
	return v
}
