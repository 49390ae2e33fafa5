package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSimSuite checks the simulation's generator (it runs by default; the simulation
// itself needs -sim): the item mix, and that the expected mean falls by exactly the
// asked drop.
func TestSimSuite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n                 int
		drop, hitP        float64
		flaky, fail, pass int     // item counts in the baseline
		baseMean          float64 // expected baseline mean
		hit, lowered      int     // stable-pass items now at hitP; items lowered partway
	}{
		// n=50: round(7.5)=8 flaky, round(2.5)=3 stable-fail, 39 stable-pass;
		// mean = (39·0.97 + 3·0.03 + 8·0.5)/50 = (37.83 + 0.09 + 4)/50 = 0.8384.
		// No drop: nothing hit; the "one more item" is lowered by 0, so it is unchanged.
		{n: 50, drop: 0, hitP: simBreak, flaky: 8, fail: 3, pass: 39, baseMean: 0.8384, hit: 0, lowered: 0},
		// 1 pt of 50 items = 0.5 item-probabilities < 0.94: no item breaks fully, one
		// falls 0.97 → 0.47.
		{n: 50, drop: 0.01, hitP: simBreak, flaky: 8, fail: 3, pass: 39, baseMean: 0.8384, hit: 0, lowered: 1},
		// 8 pts of 50 = 4.0: ⌊4/0.94⌋ = 4 break (3.76), one more falls by 0.24 → 0.73.
		{n: 50, drop: 0.08, hitP: simBreak, flaky: 8, fail: 3, pass: 39, baseMean: 0.8384, hit: 4, lowered: 1},
		// n=200: 30 flaky, 10 stable-fail, 160 stable-pass;
		// mean = (160·0.97 + 10·0.03 + 30·0.5)/200 = (155.2 + 0.3 + 15)/200 = 0.8525.
		// 2 pts of 200 = 4.0 → 4 break, one falls by 0.24.
		{n: 200, drop: 0.02, hitP: simBreak, flaky: 30, fail: 10, pass: 160, baseMean: 0.8525, hit: 4, lowered: 1},
		// Going flaky takes 0.97 − 0.5 = 0.47 per item: 4 pts of 200 = 8.0 → ⌊8/0.47⌋ =
		// ⌊17.02⌋ = 17 items at 0.5 (7.99), one more falls by 0.01 → 0.96.
		{n: 200, drop: 0.04, hitP: simGoFlaky, flaky: 30, fail: 10, pass: 160, baseMean: 0.8525, hit: 17, lowered: 1},
	}
	for _, tt := range tests {
		rng := rand.New(rand.NewPCG(1, 2))
		base, cand := simSuite(tt.n, tt.drop, tt.hitP, rng)
		var flaky, fail, pass, hit, lowered int
		for i := range base {
			switch base[i] {
			case simFlakyP:
				flaky++
			case simFailP:
				fail++
			case simPassP:
				pass++
				switch {
				case cand[i] == tt.hitP:
					hit++
				case cand[i] != simPassP:
					lowered++
				}
			}
		}
		got := [5]int{flaky, fail, pass, hit, lowered}
		want := [5]int{tt.flaky, tt.fail, tt.pass, tt.hit, tt.lowered}
		if got != want {
			t.Errorf("n=%d drop=%v: flaky, fail, pass, hit, lowered = %v; want %v", tt.n, tt.drop, got, want)
		}
		if m := Mean(base); math.Abs(m-tt.baseMean) > 1e-12 {
			t.Errorf("n=%d: baseline expected mean %v; want %v", tt.n, m, tt.baseMean)
		}
		if d := Mean(base) - Mean(cand); math.Abs(d-tt.drop) > 1e-12 {
			t.Errorf("n=%d drop=%v: expected mean fell by %v", tt.n, tt.drop, d)
		}
	}
}

// TestSimRuns checks that simulated item scores are means of binary runs: multiples of
// 1/runs, always 0 or 1 when the pass probability is 0 or 1.
func TestSimRuns(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	p := []float64{0, 1, 0.5, 0.5, 0.5, 0.5}
	scores := make([]float64, len(p))
	for _, runs := range []int{1, 3} {
		simRuns(p, runs, rng, scores)
		if scores[0] != 0 || scores[1] != 1 {
			t.Errorf("runs=%d: scores for p=0 and p=1 are %v and %v; want 0 and 1", runs, scores[0], scores[1])
		}
		for i, s := range scores {
			if k := s * float64(runs); k != math.Round(k) || s < 0 || s > 1 {
				t.Errorf("runs=%d: item %d scored %v; want a multiple of 1/%d in [0, 1]", runs, i, s, runs)
			}
		}
	}
}
