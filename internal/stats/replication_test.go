package stats

import (
	"math"
	"testing"
)

// χ² with 2 degrees of freedom is the exponential of mean 2: its p-quantile is
// −2·ln(1 − p), 0.0100251 at p = 0.005; with 1, the 95 % quantile is 1.959964² =
// 3.841459; with 4, P(χ² ≤ 4) = 1 − e^−2·(1 + 2) = 0.5939942.
func TestChiSquare(t *testing.T) {
	if q := ChiSquareQuantile(0.005, 2); math.Abs(q-(-2*math.Log(0.995))) > 1e-9 {
		t.Errorf("ChiSquareQuantile(0.005, 2) = %v; want %v", q, -2*math.Log(0.995))
	}
	if q := ChiSquareQuantile(0.95, 1); math.Abs(q-3.841459) > 1e-5 {
		t.Errorf("ChiSquareQuantile(0.95, 1) = %v; want 3.841459", q)
	}
	if p := ChiSquareCDF(4, 4); math.Abs(p-(1-3*math.Exp(-2))) > 1e-12 {
		t.Errorf("ChiSquareCDF(4, 4) = %v; want %v", p, 1-3*math.Exp(-2))
	}
	if p := ChiSquareCDF(30, 4); math.Abs(p-(1-math.Exp(-15)*(1+15))) > 1e-12 {
		t.Errorf("ChiSquareCDF(30, 4) = %v (continued fraction); want %v", p, 1-math.Exp(-15)*16)
	}
}

// The upper bound of a run-level variance: with 2 df the runs' spread S² = excess +
// within is at most S²·2/χ²₂(γ) at 1 − γ; for excess 1 and within 3, S² = 4 and the
// bound is 8/0.0100251 − 3 = 795.0. A spread under the item-level part (excess −3,
// within 3: S² = 0) bounds nothing above 0.
func TestUpperVariance(t *testing.T) {
	want := 8/(-2*math.Log(1-ReplicationGamma)) - 3
	if got := upperVariance(1, 3, 2, ReplicationGamma); math.Abs(got-want) > 1e-6 {
		t.Errorf("upperVariance(1, 3, 2) = %v; want %v", got, want)
	}
	if got := upperVariance(-3, 3, 2, ReplicationGamma); got != 0 {
		t.Errorf("upperVariance(−3, 3, 2) = %v; want 0", got)
	}
}

// Two re-run items, by hand. Item A: predicted μ' = 0.75 given its baseline and full
// runs, E[p(1 − p)] = 0.15, Var(p) = 0.01, weight 2 (it fell), re-run in both rounds
// and failed both: ē = 0.75, V' = 0.15/2 + 0.01 = 0.085. Item B: μ' = 0.5,
// E[p(1 − p)] = 0.2, Var(p) = 0.05, weight 0 (it did not fall), in round 1 only,
// passed: ē = −0.5, V' = 0.2 + 0.05 = 0.25. Weighted: Σw·ē = 1.5 over
// √(Σw²V') = √0.34, z = 2.5725; unweighted: Σē = 0.25 over √(0.085 + 0.25), z =
// 0.43193. Skewness 0 (skew1 0), no run-level noise: p = 1 − Φ(z).
func TestReplicationByHand(t *testing.T) {
	var r replication
	r.add(posterior{mean: 0.75, pq: 0.15, varP: 0.01}, []float64{0, 0}, 1, 2, posterior{mean: 0.97, pq: 0.03})
	r.add(posterior{mean: 0.5, pq: 0.2, varP: 0.05}, []float64{1, math.NaN()}, 1, 0, posterior{mean: 0.6, pq: 0.24})
	got := r.result(nil, shapes{}, FewRunsShare)
	wantZ, wantZU := 1.5/math.Sqrt(0.34), 0.25/math.Sqrt(0.335)
	if got.Items != 2 || got.Rounds != 2 || got.ItemRuns != 3 || math.Abs(got.Z-wantZ) > 1e-12 || math.Abs(got.ZU-wantZU) > 1e-12 {
		t.Fatalf("%+v; want 2 items, 2 rounds, 3 item-runs, z %v, z_u %v", got, wantZ, wantZU)
	}
	pw, pu := 1-normalCDF(wantZ), 1-normalCDF(wantZU)
	// Combined with β = 0.35: min(p_w/0.65, p_u/0.35) = p_w/0.65 (about 0.0078).
	want := math.Min(pw/0.65, pu/0.35)
	if math.Abs(got.PW-pw) > 1e-12 || math.Abs(got.PU-pu) > 1e-12 || math.Abs(got.PValue-want) > 1e-12 || got.PItem != got.PValue {
		t.Errorf("p %v, %v, combined %v, item %v; want %v, %v, %v", got.PW, got.PU, got.PValue, got.PItem, pw, pu, want)
	}
	// Run-level noise: the weighted sum's component bounded at 0.5 over a suite whose
	// Σw·p is 10 (shape p) and Σw·p(1 − p) is 1 (shape p(1 − p)). Item A's coefficient in
	// each round is w·g/R: 2·0.97/2 = 0.97 (shape p), 2·0.03/2 = 0.03; so the run part is
	// 0.5/10²·(0.97² + 0.97²) = 0.0094090 or 0.5/1²·2·0.03² = 0.0009: the larger is kept.
	// Each p then carries γ, the bound's own level, the unweighted one too (its bound
	// is 0 here).
	rn := &RunNoise{DF: 2, WeightedDF: 2, UpperWeighted: 0.5}
	b := 0.5 / 100 * 2 * 0.97 * 0.97
	got = r.result(rn, shapes{w: [2]float64{10, 1}, u: [2]float64{100, 100}}, FewRunsShare)
	wantPW := math.Max(pw, ReplicationGamma+1-normalCDF(1.5/math.Sqrt(0.34+b)))
	if math.Abs(got.PW-wantPW) > 1e-12 || math.Abs(got.PU-(pu+ReplicationGamma)) > 1e-12 {
		t.Errorf("with run noise: p_w %v, p_u %v; want %v, %v", got.PW, got.PU, wantPW, pu+ReplicationGamma)
	}
}

// Through the accumulator: 60 items passed all 3 baseline runs, and 6 of them failed
// the candidate's one full run. Re-run twice, a break fails them again and the
// replication test finds it (p well under 1 %); a bad first run passes them again and
// it finds nothing. The look's p-value is the two tests' Bonferroni combination
// min(1, 2·min(evidence p, replication p)), and the estimate reads the six items' full
// runs alone, whether the re-runs fail or pass.
func TestReplicationTellsABreakFromABadRun(t *testing.T) {
	measure := func(again float64) EvidenceResult {
		var fit PriorFit
		for range 60 {
			fit.Add(1, 0, 3)
		}
		acc := NewEvidenceAccumulator(fit.Prior(), 5)
		for k := range 60 {
			o := Observation{Index: k, BaseMean: 1, BaseRuns: 3, CandMean: 1, CandRuns: 1, HasBits: true, BaseBits: 0b111}
			if k < 6 {
				o.CandMean, o.CandRuns = (0+2*again)/3, 3
				o.Rounds, o.FullMean, o.FullRuns = []float64{again, again}, 0, 1
			}
			acc.Add(o)
		}
		r, err := acc.Result()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	broke := measure(0)
	if broke.Replication == nil || broke.Replication.Items != 6 || broke.Replication.PValue > 0.001 {
		t.Fatalf("a break: replication %+v; want 6 items and p under 0.001", broke.Replication)
	}
	if want := math.Min(1, 2*math.Min(broke.PEvidence, broke.Replication.PValue)); broke.PValue != want {
		t.Errorf("a break: p %v; want min(1, 2·min(%v, %v)) = %v", broke.PValue, broke.PEvidence, broke.Replication.PValue, want)
	}
	fine := measure(1)
	if fine.Replication == nil || fine.Replication.PValue < 0.5 || fine.Replication.Z > 0 {
		t.Errorf("a bad first run: replication %+v; want z ≤ 0 and p ≥ 0.5", fine.Replication)
	}
	if fine.Drop != broke.Drop || fine.SE != broke.SE {
		t.Errorf("the estimate %v ± %v / %v ± %v moved with the re-runs; want it read from the full runs alone", fine.Drop, fine.SE, broke.Drop, broke.SE)
	}
}
