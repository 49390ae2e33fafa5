package stats

import "math"

// The replication test: do the items that pointed at a drop fall again when they are
// run again?
//
// A re-run of some items (a round of settling an inconclusive verdict, or a file given
// with --rerun) is a fresh draw of each item it holds, taken after the full runs had
// pointed at the items. Averaged into the items' means it would mislead twice: a shift
// shared by the whole first run (an outage, a provider's bad day) stays in the means
// however many re-runs follow, and the run-level guard, estimated from a few runs,
// cannot tell it from a regression; and a stable item that failed its one run by
// chance is re-run and passes while the stable items that passed keep their lucky runs,
// so the estimated drop is biased down. So an item re-run because its full runs fell
// (SelectedZ) is read apart as well: the estimate reads its full runs alone, and the
// replication test reads its re-runs against what "nothing changed" predicts for them
// given everything seen before them. The evidence test still reads all its runs
// averaged (a break that fails every re-run then stands out even where the conditional
// prediction below is unsure, as in a small all-pass suite). Items re-run for the
// estimate's sake (the noisy items, chosen by the baseline alone: settle re-runs an
// item that flipped between the baseline's runs only as one, Observation.Flipped)
// average all their runs everywhere; the estimate reads any other re-run item by its
// full runs alone.
//
//   - an item's prediction is its posterior, under the estimate's prior (whose ends sit
//     nearer 0 and 1, so an item that failed once is not taken for a stable one), given
//     its baseline runs and the candidate's full runs together (nothing changed: they
//     are all draws of one p): μ'_i, with E[p(1 − p)] and Var(p) of that posterior.
//     Conditioning on the runs that chose the item makes the rounds a fair test: an
//     item that failed by chance is predicted lower, as it should be, and passes again;
//   - over its R_i rounds an item's mean deficit ē_i = μ'_i − ȳ_i has variance
//     V'_i = λ·E[p(1 − p)]/R_i + Var(p);
//   - as in the evidence test, a weighted statistic Σw_i·ē_i / √Σw²_i·V'_i (a stable
//     item failing again) and an unweighted one Σē_i / √ΣV'_i, read with the
//     Cornish–Fisher correction and combined by CombineP with the evidence test's β. The weights w_i are the
//     evidence test's, from the baseline alone: fixed before the rounds, they weigh an
//     item the baseline saw stable as a stable item, though its failed first run makes
//     it look flaky under "nothing changed" (an item that keeps failing after passing
//     every baseline run is what a break looks like);
//   - each round is a run of its own: its shared shift moves the statistic by the
//     round's items' share of the suite. For a shift that hits item i in proportion to
//     g_i, the run-level variance of a statistic Σa_i·ē_i is
//     Var(η)·Σ_r(Σ_{i in round r} a_i·g_i/R_i)², with Var(η) = τ²/(Σ_all a_i·g_i)² from
//     the suite's run-level component τ² of the same statistic. Two shapes are tried,
//     g = p (an outage: every passing item may fail) and g = p(1 − p) (a shift that tips
//     borderline items), and the larger variance is kept;
//   - τ² is known from few runs (2 degrees of freedom with a three-run baseline). The
//     evidence test pays for that with Student's t; here the statistic's run-level
//     part is a small share when few items are re-run, and t would charge the whole
//     statistic for it. Instead τ² is taken at its upper confidence bound at
//     1 − γ (γ = ReplicationGamma) and γ is added to the p-value (Berger and Boos's
//     confidence-interval p-value): valid whatever τ² is, and a re-run of a few items,
//     little moved by a run-level shift, keeps its power. A stable item that fails its
//     re-runs stands out from the runs' spread: what no number of full runs of a
//     three-run baseline can show.
//
// The evidence test and the replication test share the re-runs, so the look's p-value
// is their Bonferroni combination min(1, 2·min(p_evidence, p_replication)): under
// "nothing changed" it is below α with probability at most α.

// ReplicationGamma is γ, the level of the run-level component's upper bound in the
// replication test, added to its p-value.
const ReplicationGamma = 0.005

// Replication is the replication test's measurement (EvidenceResult.Replication).
type Replication struct {
	// Items is how many items were re-run, Rounds how many re-runs there were,
	// ItemRuns the item-runs they hold.
	Items    int `json:"items"`
	Rounds   int `json:"rounds"`
	ItemRuns int `json:"item_runs"`
	// Predicted is the mean over the re-run items of their predictions μ'_i, Mean their
	// mean score over the rounds.
	Predicted float64 `json:"predicted"`
	Mean      float64 `json:"mean"`
	// Z and ZU are the weighted and unweighted statistics, PW and PU their one-sided
	// p-values with the run-level part counted, PValue the two combined (CombineP).
	Z      float64 `json:"z"`
	ZU     float64 `json:"z_unweighted"`
	PW     float64 `json:"p_weighted"`
	PU     float64 `json:"p_unweighted"`
	PValue float64 `json:"p_value"`
	// PItem is PValue without the run-level part: what the rounds say at item level.
	PItem float64 `json:"p_item"`
}

// replication accumulates the replication test, item by item.
type replication struct {
	items, itemRuns     int
	sumPred, sumMean    float64
	sumW2V, sumWE, sumV float64 // Σw²V', Σw·ē, ΣV'
	sumE                float64
	sumW3M3, sumM3      float64
	// per round and shape (0: g = p, 1: g = p(1 − p)): Σ a_i·g_i/R_i of the weighted
	// (a = w') and the unweighted (a = 1) statistic.
	cw, cu [][2]float64
}

// add counts one re-run item: post is its posterior given the baseline and the full
// runs, rounds its scores in the re-runs (NaN: not in that one), lambda the prior's, w
// its weight in the evidence test and base its posterior given the baseline alone,
// which gives its shapes as the suite's sums take them (shapes.add).
func (r *replication) add(post posterior, rounds []float64, lambda, w float64, base posterior) {
	var sum float64
	n := 0
	for _, y := range rounds {
		if !math.IsNaN(y) {
			sum += y
			n++
		}
	}
	if n == 0 {
		return
	}
	rr := float64(n)
	v := lambda*post.pq/rr + post.varP
	if v <= 0 {
		v = 1e-12
	}
	e := post.mean - sum/rr
	r.items++
	r.itemRuns += n
	r.sumPred += post.mean
	r.sumMean += sum / rr
	r.sumW2V += w * w * v
	r.sumWE += w * e
	r.sumV += v
	r.sumE += e
	m3 := post.skew1 / math.Sqrt(rr/lambda) * math.Pow(v, 1.5)
	r.sumW3M3 += w * w * w * m3 // the weighted sum's third moment
	r.sumM3 += m3
	for len(r.cw) < len(rounds) {
		r.cw = append(r.cw, [2]float64{})
		r.cu = append(r.cu, [2]float64{})
	}
	g := [2]float64{base.mean, base.pq}
	for k, y := range rounds {
		if math.IsNaN(y) {
			continue
		}
		for s := range g {
			r.cw[k][s] += w * g[s] / rr
			r.cu[k][s] += g[s] / rr
		}
	}
}

// boundedP is the one-sided p-value of a statistic's sum with item-level variance a
// and run-level variance b (at its bound), read on the normal with the item part's
// skewness scaled by its share of the total, as runGuard does.
func boundedP(sum, a, b, skew float64) float64 {
	if a+b <= 0 {
		return 0.5
	}
	share := a / (a + b)
	return 1 - normalCDF(cornishFisher(sum/math.Sqrt(a+b), skew*math.Pow(share, 1.5)))
}

// shapes are the suite's Σ_all a_i·g_i of each statistic and shape, which translate
// the measured run-level variance of the suite's sums into a per-item shift.
type shapes struct{ w, u [2]float64 }

func (s *shapes) add(post posterior, w float64) {
	g := [2]float64{post.mean, post.pq}
	for k := range g {
		s.w[k] += w * g[k]
		s.u[k] += g[k]
	}
}

// result reads the test: rn the suite's run-level noise (nil: none measured), tot the
// suite's shape sums, share the evidence test's β (CombineP).
func (r *replication) result(rn *RunNoise, tot shapes, share float64) Replication {
	out := Replication{Items: r.items, Rounds: len(r.cw), ItemRuns: r.itemRuns}
	if r.items == 0 {
		out.PW, out.PU, out.PValue, out.PItem = 1, 1, 1, 1
		return out
	}
	ni := float64(r.items)
	out.Predicted, out.Mean = r.sumPred/ni, r.sumMean/ni
	out.Z = r.sumWE / math.Sqrt(r.sumW2V)
	out.ZU = r.sumE / math.Sqrt(r.sumV)
	skew := r.sumW3M3 / math.Pow(r.sumW2V, 1.5)
	skewU := r.sumM3 / math.Pow(r.sumV, 1.5)
	pw := 1 - normalCDF(cornishFisher(out.Z, skew))
	pu := 1 - normalCDF(cornishFisher(out.ZU, skewU))
	out.PItem = CombineP(pw, pu, share)
	out.PW, out.PU = pw, pu
	if rn != nil && rn.DF > 0 && !rn.Still {
		tauW, tauU := rn.UpperWeighted, rn.UpperSum // the suite sums' run-level variances, bounded above
		var bw, bu float64
		// Each statistic reads its own component, as the evidence test's guard does.
		for s := range 2 {
			var sw, su float64
			for k := range r.cw {
				sw += r.cw[k][s] * r.cw[k][s]
				su += r.cu[k][s] * r.cu[k][s]
			}
			if tot.w[s] > 0 {
				bw = math.Max(bw, tauW/(tot.w[s]*tot.w[s])*sw)
			}
			if tot.u[s] > 0 {
				bu = math.Max(bu, tauU/(tot.u[s]*tot.u[s])*su)
			}
		}
		out.PW = math.Max(pw, math.Min(1, ReplicationGamma+boundedP(r.sumWE, r.sumW2V, bw, skew)))
		out.PU = math.Max(pu, math.Min(1, ReplicationGamma+boundedP(r.sumE, r.sumV, bu, skewU)))
	}
	out.PValue = CombineP(out.PW, out.PU, share)
	return out
}

// SelectedZ is how far below its prediction, in predicted standard deviations of its
// full runs' mean, an item's full runs must fall for its re-runs to count as chosen by
// those runs: the evidence items settle re-runs (the replication test reads their
// re-runs apart). A flaky item is never that far below after one failure (a deficit
// under 1 over a standard deviation near 0.5); settle re-runs it only as a noisy item,
// chosen by the baseline alone, and its runs average (Observation.Flipped).
const SelectedZ = 2

// chosenByFullRuns says an item whose full runs averaged full over runs fell SelectedZ
// or more below its prediction post.
func chosenByFullRuns(post posterior, lambda, full float64, runs int) bool {
	v := lambda*post.pq/float64(runs) + post.varP
	return v > 0 && (post.mean-full)/math.Sqrt(v) >= SelectedZ
}
