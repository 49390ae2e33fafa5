package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The estimate's prediction holds the baseline's mean. 191 items passed all 3 baseline
// runs and 9 passed 2 of 3 (a suite that fails now and then, once and never twice): the
// baseline's mean is (191·1 + 9·2/3)/200 = 197/200 = 0.985, and a candidate that scores
// exactly that is estimated at no drop. Before the calibration the fit, which cannot
// reproduce "once and never twice", predicted 0.983 (a 0.2-pt improvement read
// into an unchanged suite).
func TestCalibrateHoldsBaselineMean(t *testing.T) {
	var fit PriorFit
	obs := make([]Observation, 200)
	for i := range obs {
		m := 1.0
		if i < 9 {
			m = 2.0 / 3
		}
		fit.Add(m, m*(1-m)*3/2, 3)
		obs[i] = Observation{Index: i, BaseMean: m, BaseRuns: 3, CandMean: 1, CandRuns: 1}
	}
	for i := range 3 { // 3 of the 200 fail in the candidate's run: its mean is 197/200
		obs[10+i].CandMean = 0
	}
	r := measureFit(t, &fit, obs)
	if math.Abs(r.PredictedMean-0.985) > 1e-9 {
		t.Errorf("predicted mean %.6f; want the baseline's 0.985", r.PredictedMean)
	}
	if math.Abs(r.Drop) > 1e-9 {
		t.Errorf("estimated drop %.4f pts for a candidate at the baseline's mean; want 0", 100*r.Drop)
	}
	// The replication test reads the fit before the calibration.
	p := fit.Prior()
	if p.replication().Posterior(1, 3) == p.estimate().Posterior(1, 3) {
		t.Error("the replication test's prior is the calibrated one; want the fit before the calibration")
	}
}

// Nothing changed, a suite whose items all pass nearly always (p = 1 − 0.03·u³, u
// uniform: a mean of 1 − 0.03/4 = 0.9925), 3 baseline runs and one candidate run, 200
// items: the estimated drop averages 0 within 0.1 pts (the bound for all-pass
// suites). Before the calibration it averaged −0.12 pts here (−0.23 through the binary).
// Over 400 suites the mean's standard error is about √(Σp(1−p)·(1 + 1/3))/200/√400 ≈
// 0.004 pts, far inside the bound.
func TestCalibrateNearPassUnbiased(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, trials = 200, 400
	var sum float64
	for range trials {
		var fit PriorFit
		obs := make([]Observation, n)
		for i := range obs {
			u := rng.Float64()
			p := 1 - 0.03*u*u*u
			k := 0
			for range 3 {
				if rng.Float64() < p {
					k++
				}
			}
			m := float64(k) / 3
			c := 0.0
			if rng.Float64() < p {
				c = 1
			}
			fit.Add(m, m*(1-m)*3/2, 3)
			obs[i] = Observation{Index: i, BaseMean: m, BaseRuns: 3, CandMean: c, CandRuns: 1}
		}
		r := measureFit(t, &fit, obs)
		sum += r.Drop
	}
	if bias := sum / trials; math.Abs(bias) > 0.001 {
		t.Errorf("mean estimated drop %.3f pts with nothing changed; want |bias| ≤ 0.1 pts", 100*bias)
	}
}

// An all-pass suite's mean, 1, is beyond every grid value: the calibration goes as far
// as its bound allows and predicts every item at least 0.9999 (EndValue is 0.99995).
func TestCalibrateAllPass(t *testing.T) {
	var fit PriorFit
	for range 8 {
		fit.Add(1, 0, 3)
	}
	if got := fit.Prior().estimate().Posterior(1, 3); got < 0.9999 {
		t.Errorf("an 8-item all-pass suite predicts %.5f; want ≥ 0.9999", got)
	}
}

// measureFit measures obs against the prior fit holds.
func measureFit(t *testing.T, fit *PriorFit, obs []Observation) EvidenceResult {
	t.Helper()
	acc := NewEvidenceAccumulator(fit.Prior(), 0)
	for _, o := range obs {
		acc.Add(o)
	}
	r, err := acc.Result()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Whatever the baseline (any size, run counts 1–5, pass/fail or graded means, all-pass,
// all-fail), the calibrated prior is a distribution: finite weights summing to 1, and
// every prediction in [0, 1].
func TestCalibrateAlwaysADistribution(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for c := range 200 {
		var fit PriorFit
		n := 1 + rng.IntN(300)
		kind := rng.IntN(4) // 0: random, 1: all pass, 2: all fail, 3: graded
		for range n {
			runs := 1 + rng.IntN(5)
			var m float64
			switch kind {
			case 0:
				m = float64(rng.IntN(runs+1)) / float64(runs)
			case 1:
				m = 1
			case 3:
				m = rng.Float64()
			}
			fit.Add(m, rng.Float64()*0.1, runs)
		}
		est := fit.Prior().estimate()
		var sum float64
		for _, w := range est.Weights {
			if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
				t.Fatalf("case %d (kind %d, %d items): weight %v", c, kind, n, w)
			}
			sum += w
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("case %d: weights sum to %v", c, sum)
		}
		for _, m := range []float64{0, 0.5, 1} {
			if p := est.Posterior(m, 3); !(p >= 0 && p <= 1) {
				t.Fatalf("case %d: prediction %v for mean %v", c, p, m)
			}
		}
	}
}
