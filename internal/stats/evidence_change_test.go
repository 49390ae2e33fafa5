package stats

import (
	"math"
	"testing"
)

// changeSuite is a 200-item pass/fail suite with 3 baseline and 3 candidate runs:
// 150 items passed 3/3 and 20 failed 0/3 in the baseline; 30 flaky ones split 4, 11,
// 11, 4 over 0/3, 1/3, 2/3 and 3/3 (what 30 coins at p = 0.5 give on average). cand
// returns the candidate's passes (of 3) for item i given its baseline's.
func changeSuite(cand func(i, base int) int) (obs []Observation, vars []float64) {
	var base []int
	for range 150 {
		base = append(base, 3)
	}
	for range 20 {
		base = append(base, 0)
	}
	for k, c := range []int{4, 11, 11, 4} {
		for range c {
			base = append(base, k)
		}
	}
	for i, b := range base {
		m := float64(b) / 3
		obs = append(obs, Observation{Index: i, BaseMean: m, BaseRuns: 3, CandMean: float64(cand(i, b)) / 3, CandRuns: 3})
		vars = append(vars, m*(1-m)*3/2) // sample variance of 0/1 scores
	}
	return obs, vars
}

func measure(t *testing.T, obs []Observation, vars []float64) EvidenceResult {
	t.Helper()
	r, err := MeasureEvidence(obs, vars, 10)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Flaky items that happen to fail in the candidate are not a drop: the change model
// pools their runs. Here the 11 flaky items that passed 2 of 3 baseline runs fail all 3
// candidate runs (for a coin, 1 chance in 8 each) and nothing else moves. Their
// prediction error is about 11 × (0.5 − 0) = 5.5 items, 2.75 pts of the suite: the
// prediction error alone would be over max_drop. Pooled, each has failed 4 of 6 runs,
// as a coin does, and the suite's 150 stable items that all passed again say there is
// no drift: the estimate stays well under 1 pt.
func TestChangeModelPoolsFlakyItems(t *testing.T) {
	obs, vars := changeSuite(func(i, b int) int {
		if i >= 170 && b == 2 {
			return 0
		}
		return b
	})
	r := measure(t, obs, vars)
	if pe := r.PredictedMean - r.CandMean; pe < 0.025 {
		t.Fatalf("prediction error %.4f; want over 0.025 (11 items × about 0.5 / 200)", pe)
	}
	if r.ChangeItems != 200 {
		t.Errorf("change model measured %d items; want all 200", r.ChangeItems)
	}
	if r.Drop > 0.01 {
		t.Errorf("estimated drop %.4f; want under 0.01: unchanged flaky items are noise", r.Drop)
	}
}

// Stable items that break are read as changed, not shrunk away: 8 of the 150 items
// that passed 3/3 fail 3/3, a true drop of 8/200 = 4 pts (each broken item's baseline
// posterior is just under 1 and its candidate's just over 0).
func TestChangeModelKeepsBreaks(t *testing.T) {
	obs, vars := changeSuite(func(i, b int) int {
		if i < 8 {
			return 0
		}
		return b
	})
	r := measure(t, obs, vars)
	if r.Drop < 0.035 || r.Drop > 0.042 {
		t.Errorf("estimated drop %.4f; want 0.04 within [0.035, 0.042]", r.Drop)
	}
	if r.ChangedShare < 0.03 || r.ChangedShare > 0.06 {
		t.Errorf("changed share %.4f; want about 8/200 = 0.04", r.ChangedShare)
	}
}

// A drift of every item is measured, not shrunk into "nothing changed": 45 of the
// 150 stable items fail one candidate run each (45 of their 450 runs, 10 %, where the
// baseline failed none). Every stable item passing 10 % less is a drop of 0.1 × 150/200
// = 7.5 pts, and so is the mean: 45/3/200. A model of "changed or not" alone would read
// 45 single failures as noise of mostly unchanged items and report far less.
func TestChangeModelMeasuresDrift(t *testing.T) {
	obs, vars := changeSuite(func(i, b int) int {
		if i < 45 {
			return 2
		}
		return b
	})
	r := measure(t, obs, vars)
	if r.Drop < 0.06 || r.Drop > 0.085 {
		t.Errorf("estimated drop %.4f; want 0.075 within [0.06, 0.085]", r.Drop)
	}
	if r.Drift < 0.07 {
		t.Errorf("drift %.4f; want about 0.1 (10 %% of stable items' runs)", r.Drift)
	}
}

// With one candidate run, or on graded scores, the change model is not used: the
// estimate is the prediction error.
func TestChangeModelScope(t *testing.T) {
	obs, vars := changeSuite(func(i, b int) int { return b })
	for i := range obs {
		obs[i].CandRuns = 1
		obs[i].CandMean = math.Round(obs[i].CandMean)
	}
	r := measure(t, obs, vars)
	if r.ChangeItems != 0 || r.Drop != r.PredictedMean-r.CandMean {
		t.Errorf("one run: change items %d, drop %v; want 0 and the prediction error %v", r.ChangeItems, r.Drop, r.PredictedMean-r.CandMean)
	}
	// Graded: scores 0.5 and 1 that vary little (λ well under 1).
	obs, vars = nil, nil
	for i := range 100 {
		m := 0.5 + 0.5*float64(i%2)
		obs = append(obs, Observation{Index: i, BaseMean: m, BaseRuns: 3, CandMean: m, CandRuns: 3})
		vars = append(vars, 0.01)
	}
	r = measure(t, obs, vars)
	if r.Prior.Lambda >= ChangeMinLambda || r.ChangeItems != 0 {
		t.Errorf("graded: λ %v, change items %d; want λ < %v and 0", r.Prior.Lambda, r.ChangeItems, ChangeMinLambda)
	}
}

// The measurement does not depend on the items' order.
func TestChangeModelOrderFree(t *testing.T) {
	obs, vars := changeSuite(func(i, b int) int {
		if i < 8 || i >= 170 && b == 2 {
			return 0
		}
		return b
	})
	a := measure(t, obs, vars)
	for i, j := 0, len(obs)-1; i < j; i, j = i+1, j-1 {
		obs[i], obs[j] = obs[j], obs[i]
		vars[i], vars[j] = vars[j], vars[i]
	}
	b := measure(t, obs, vars)
	if a.Drop != b.Drop || a.Drift != b.Drift || a.ChangedShare != b.ChangedShare {
		t.Errorf("reversed order: %v %v %v; want %v %v %v", b.Drop, b.Drift, b.ChangedShare, a.Drop, a.Drift, a.ChangedShare)
	}
}

// Many runs: an item that passed 400 of 400 baseline runs and failed 400 of 400
// candidate runs has a likelihood of "kept its score" that underflows to 0; it is read
// as changed, and the estimate stays a number: 1 item of 10 fell by 1, a drop of 0.1.
func TestChangeModelManyRuns(t *testing.T) {
	var obs []Observation
	var vars []float64
	for i := range 10 {
		c := 1.0
		if i == 0 {
			c = 0
		}
		obs = append(obs, Observation{Index: i, BaseMean: 1, BaseRuns: 400, CandMean: c, CandRuns: 400})
		vars = append(vars, 0)
	}
	r := measure(t, obs, vars)
	if math.IsNaN(r.Drop) || math.Abs(r.Drop-0.1) > 0.005 {
		t.Errorf("estimated drop %v; want 0.1 within 0.005", r.Drop)
	}
}
