package settle

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The levels keep the procedure's false-block rate at α: simulated Brownian motions
// under "no drop", tested at each look's nominal level, cross some boundary in about
// α of the trials, and never much more. The Bonferroni split of α would cross in far
// fewer: the levels use the overlap between looks.
func TestSpendingKeepsAlpha(t *testing.T) {
	for _, ts := range [][]float64{
		{0.8, 0.85, 0.9, 0.95, 1},    // the default budget: 20 % of the suite over 4 rounds
		{0.5, 0.625, 0.75, 0.875, 1}, // a budget as large as the suite
		{1.0 / 3, 0.5, 0.75, 1},
	} {
		sp := NewSpending(0.05)
		levels := make([]float64, len(ts))
		sum := 0.0
		for i, x := range ts {
			levels[i] = sp.Next(x)
			sum += levels[i]
		}
		if levels[0] != floor3(Spent(0.05, ts[0])) {
			t.Errorf("%v: first look at %v; want Spent(t0) = %v rounded down", ts, levels[0], Spent(0.05, ts[0]))
		}
		// Monte Carlo: W(t) with independent N(0, Δt) increments; reject at look k when
		// the one-sided p of Z = W/√t is under level k.
		rng := rand.New(rand.NewPCG(42, 1))
		const trials = 200000
		crossed := 0
		for range trials {
			w, prev := 0.0, 0.0
			for k, x := range ts {
				w += rng.NormFloat64() * math.Sqrt(x-prev)
				prev = x
				p := 0.5 * math.Erfc(w/math.Sqrt(x)/math.Sqrt2)
				if p < levels[k] {
					crossed++
					break
				}
			}
		}
		rate := float64(crossed) / trials
		t.Logf("%v: levels %v, false-block rate %.4f", ts, levels, rate)
		// Binomial SE at 0.05 over 200,000 trials is 0.00049; the grid and the rounding
		// down of each level err on the low side.
		if rate > 0.0515 || rate < 0.045 {
			t.Errorf("%v: levels %v: false-block rate %.4f; want 0.05 (within 0.045–0.0515)", ts, levels, rate)
		}
		if sum <= 0.05 && len(ts) > 2 {
			t.Errorf("%v: levels %v sum to %.4f: no more than the Bonferroni split", ts, levels, sum)
		}
	}
}

func TestSpendingEdges(t *testing.T) {
	sp := NewSpending(0.05)
	if l := sp.Next(1); l != floor3(0.05) {
		t.Errorf("one look at t = 1: level %v; want α = 0.05", l)
	}
	if l := sp.Next(1); l != 0 {
		t.Errorf("a look that adds no information: level %v; want 0", l)
	}
	// Spent: 0 at 0, α at 1; at 0.8: 0.05·ln(1 + 1.71828·0.8) = 0.05·ln(2.37463) = 0.04324.
	if got := Spent(0.05, 0.8); math.Abs(got-0.04324) > 5e-6 {
		t.Errorf("Spent(0.05, 0.8) = %v; want 0.04324", got)
	}
	for x, want := range map[float64]float64{0.0432369: 0.0432, 0.05: 0.05, 0.00999: 0.00999, 0.123456: 0.123} {
		if got := floor3(x); got != want {
			t.Errorf("floor3(%v) = %v; want %v", x, got, want)
		}
	}
}
