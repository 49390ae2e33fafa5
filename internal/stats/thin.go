package stats

import "math"

// Thin runs. Beside a three-run baseline, one candidate run knows the runs' spread to
// 2 degrees of freedom, and three runs agree by chance often: a mixture of good days
// and bad days shows no bad day in three runs 42 % of the time when a quarter of the
// runs are bad. The guard's point estimate of the run-level variance is then near 0
// and a candidate run that was bad as a whole reads as a regression its t reference
// cannot catch (a bad day fails stable items, which the weighted statistic weighs
// most). One run cannot tell such a run from a real drop of its size; a re-run can.
//
// So a look over thin runs (fewer than SharedDF degrees of freedom) also reads both statistics with the run-level variance at its upper confidence
// bound at 1 − ThinGamma (90 %; 95 % where many items varied, ThinGammaVarying), against the normal: EvidenceResult.PThin. The weighted
// statistic's bound is also read as an outage would carry it: a run in which every
// item fails with an extra probability f moves the unweighted sum by f·Σp̂ and the
// weighted one by f·Σw·p̂, so the unweighted bound, which the flaky items' spread
// measures, carries over scaled by (Σw·p̂/Σp̂)². The baseline's runs alone cannot bound
// the weighted statistic's run-level part: stable items that never failed in three
// runs show no spread, whatever a bad day would do to them. A drop that bound
// cannot explain (PThin under the level: a drop several times the spread the runs
// allow) blocks on the first look; one it can is left inconclusive, and settle's
// re-runs, a fresh draw of the items that carried it, decide (the replication test).
// A block on the first look still stands on one run: with settle, its evidence is
// re-run once before it stands (gate.RegressionDecision.Unreplicated). After re-runs
// the bound stays on the evidence test, whose averages keep the one run's shared
// shift however many re-runs follow: PThin is then the Bonferroni combination of the
// bounded evidence test and the replication test, and a run that was bad as a whole
// blocks only if its items fail again when re-run.
// With three candidate runs, or a history, the spread is known to 4 or more degrees
// of freedom and the guard alone decides. With no runs to compare at all (one baseline
// run, one candidate run, no history) the bound is assumed, not measured
// (UnmeasuredDF).

// UnmeasuredDF is the degrees of freedom a look with no runs to compare (one baseline
// run, one candidate run, no history) takes its runs' spread to be known to: it reads
// them as if they had spread as their items predict (S² = W, the model's item-level
// variance of a run's sum, Σλ·E[p(1 − p)]) on 2 degrees of freedom, the bound of a
// three-run baseline beside one candidate run whose runs agreed with their items:
// 8.49·W. Nothing measures the run-level noise there, so a first look blocks only a
// drop such a shift could not explain, and a smaller one waits for settle's re-runs
// of its items, which the replication test reads apart from the one run that chose
// them. A suite whose items never vary (an all-pass suite) predicts W near 0 and keeps
// its power, as a three-run all-pass baseline does (RunNoise.Still). Measured through
// the real binary (bench/verdict, 400 trials, a 1-run baseline and one pull-request run
// under a logit shift with a 3.4-pt spread): unchanged pull requests were blocked
// 14.2 % of the time without a bound (12.8 % with settle, every block on the first
// look).
const UnmeasuredDF = 2

// ThinGamma is the level of the upper bound of the run-level variance a first look on
// thin runs must rule out: on 2 degrees of freedom the bound is 9.49 times the runs'
// spread S² (χ²₂ at 10 % is −2·ln 0.9 = 0.2107), less the item-level part. Measured
// through the real binary at 200 items, one pull-request run and a three-run baseline
// (bench/verdict, 400 trials): unchanged pull requests blocked under a bad-day mixture
// 8.2 % → 2.5 %, an additive shift 5.5 % → 1.2 %, an outage 3.5 % → 1.2 %; at 5 % the
// bound (19.5 S²) cut the mixture to 0.5 % but left a 10-pt drop on 20 items with one
// run inconclusive, at 20 % (4.5 S²) the mixture still blocked 4.5 % (200 trials).
const ThinGamma = 0.1

// ThinGammaVarying is ThinGamma where SpreadMinItems or more items varied between the
// baseline's runs: a 95 % bound, 19.5 S² on 2 degrees of freedom. There the runs'
// spread is read against many items' and is the run-level noise's own measure; a
// bad day that three baseline runs happened not to show is then what the bound must
// allow for. Measured through the real binary (bench/verdict, 400 trials, 200 items,
// one pull-request run): unchanged pull requests blocked under a stronger bad day (a
// fifth of the runs failing 15 % of items) 7.8 % → 4.0 %, under the bad-day mixture
// 2.5 % → 1.2 %; in gatesim's trust table every settle row stayed the same, and the
// first look on one run alone blocks fewer breaks (4-pt break, model A, 8.0 % →
// 4.5 %) and leaves them to settle. A suite with fewer varying items (a small or an
// all-pass suite, whose S² is mostly the items' own noise) keeps the 90 % bound: the
// 95 % one left the tutor example's 10-pt drop on 20 items inconclusive on one run.
const ThinGammaVarying = 0.05

// thinP is PThin: the combined p-value of the weighted statistic (sum sw, item-level
// variance vw) and the unweighted one (se, vu), each at least its p-value in r, with
// the run-level variances at their upper bounds (rn.ThinWeighted, or rn.ThinSum times
// the outage scale k = (Σw·p̂/Σp̂)² when larger; rn.ThinSum; each times f = 1/F + 1/B)
// read against the normal.
func thinP(sw, vw, se, vu, k float64, rn RunNoise, f float64, r EvidenceResult) float64 {
	const normal = 1 << 30 // degrees of freedom past StudentCDF's normal cut
	bw := runGuard(sw, vw, math.Max(rn.ThinWeighted, k*rn.ThinSum)*f, normal, r.Skew)
	bu := runGuard(se, vu, rn.ThinSum*f, normal, r.SkewU)
	return CombineP(math.Max(r.PW, bw), math.Max(r.PU, bu), r.UnweightedShare)
}

// outageScale is (Σw·p̂/Σp̂)²: how an outage's shift of the unweighted sum carries to the
// weighted one (0 when no item is predicted to pass).
func (a *EvidenceAccumulator) outageScale() float64 {
	if a.sumP <= 0 {
		return 0
	}
	k := a.sumWP / a.sumP
	return k * k
}

// tippingScale is (Σw·pq/Σpq)²: how a shift that tips borderline items (each item's
// pass probability moved in proportion to its p(1 − p), a logit shift: a drifting
// judge, a provider's bad day) carries the unweighted sum's run-level variance to the
// weighted one (0 when no item varies).
func (a *EvidenceAccumulator) tippingScale() float64 {
	if a.sumPQ <= 0 {
		return 0
	}
	k := a.sumWPQ / a.sumPQ
	return k * k
}
