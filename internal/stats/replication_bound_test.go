package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The floor by hand, over 50 items seen 4 times (3 baseline runs, 1 full run): 20
// passed all 4, 10 passed 3, 6 passed 2, 4 passed 1, 10 none. The share of an item's
// ordered 4-tuples of runs that go pass, pass, pass, fail is [s]₃·[4 − s]₁/[4]₄: 6/24
// for s = 3, 0 otherwise; of its ordered triples that go pass, pass, fail,
// [s]₂·[4 − s]₁/[4]₃: 6/24 for s = 3, 4/24 for s = 2. So E[p | 2 passes, 1 fail] =
// (10·6/24)/(10·6/24 + 6·4/24) = 2.5/3.5 = 5/7, the floor of an item that passed 3 and
// failed 1. An item that passed 2 and failed 2 is floored at E[p | 1 pass, 2 fails]
// (a fourth run is all the runs allow): 4-tuples pass, pass, fail, fail:
// [2]₂·[2]₂/24 = 4/24 for s = 2, so 6·4/24 = 1; triples pass, fail, fail:
// [s]₁·[4 − s]₂/24, 6/24 for s = 1 and 4/24 for s = 2, so 4·6/24 + 6·4/24 = 2;
// the floor is 1/2. An item that passed 1 and failed 3 would be floored at
// E[p | 3 fails], which conditions on no pass: none. With one baseline run and one full
// run, no floor either.
func TestPatternFloorByHand(t *testing.T) {
	var p patterns
	for s, n := range map[int]int{4: 20, 3: 10, 2: 6, 1: 4, 0: 10} {
		for range n {
			b := min(s, 3)
			p.add(float64(b)/3, 3, float64(s-b), 1)
		}
	}
	cases := []struct {
		a, f int
		want float64
		ok   bool
	}{{3, 1, 5.0 / 7, true}, {2, 2, 0.5, true}, {1, 3, 0, false}, {4, 0, 0, false}}
	for _, c := range cases {
		got, ok := p.floor(c.a, c.f)
		if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("floor(%d passes, %d fails) = %v, %v; want %v, %v", c.a, c.f, got, ok, c.want, c.ok)
		}
	}
	// The floor lowers a prediction above it and keeps Var(p); one under it stands.
	post := posterior{mean: 0.8, pq: 0.1, varP: 0.06}
	if got := p.floored(post, 3, 1); math.Abs(got.mean-5.0/7) > 1e-12 || math.Abs(got.pq-(5.0/7*2/7-0.06)) > 1e-12 || got.varP != 0.06 {
		t.Errorf("floored %+v; want mean 5/7, pq 5/7·2/7 − 0.06, varP 0.06", got)
	}
	if got := p.floored(posterior{mean: 0.6, pq: 0.2}, 3, 1); got.mean != 0.6 {
		t.Errorf("a prediction under the floor moved to %v", got.mean)
	}
	// Items seen fewer times (two baseline runs and a full run) do not enter the floor
	// of an item seen four times: its moments need four runs of each item.
	for range 5 {
		p.add(1, 2, 0, 1)
	}
	if got, _ := p.floor(3, 1); math.Abs(got-5.0/7) > 1e-12 {
		t.Errorf("with 3-run items beside: floor(3, 1) = %v; want 5/7", got)
	}
	// An item seen more than PatternMaxRuns times is not counted (the counts grow as
	// the square of the runs).
	var many patterns
	many.add(1, PatternMaxRuns, 1, 1)
	if len(many.n) != 0 {
		t.Errorf("an item seen %d times counted", PatternMaxRuns+1)
	}
	var one patterns
	for range 10 {
		one.add(1, 1, 0, 1)
		one.add(0, 1, 1, 1)
	}
	if _, ok := one.floor(1, 1); ok {
		t.Error("one baseline run and one full run: a floor was read")
	}
	// Scores that are not whole passes are not counted.
	var graded patterns
	graded.add(0.5, 1, 1, 1)
	if len(graded.n) != 0 {
		t.Errorf("a half score counted: %v", graded.n)
	}
}

// modelASuite is gatesim's model A at 200 items: 150 items pass always, 20 fail always,
// 30 flaky items pass with p = 0.5, measured over 3 baseline runs and one full run; the
// items that passed every baseline run and failed the full run are re-run 4 times. With
// broken > 0, that many always-pass items fail the full run and every re-run.
func modelASuite(t *testing.T, rng *rand.Rand, broken int) EvidenceResult {
	return pointSuite(t, rng, broken, func(i int) float64 {
		switch {
		case i < 30:
			return 0.5
		case i < 50:
			return 0
		}
		return 1
	})
}

// pointSuite is modelASuite with item i passing with probability at(i); items 50 and
// up are the ones a break fails.
func pointSuite(t *testing.T, rng *rand.Rand, broken int, at func(int) float64) EvidenceResult {
	t.Helper()
	var fit PriorFit
	obs := make([]Observation, 200)
	for i := range obs {
		p := at(i)
		draw := func() float64 {
			if rng.Float64() < p {
				return 1
			}
			return 0
		}
		var base float64
		for range 3 {
			base += draw()
		}
		fit.Add(base/3, base*(3-base)/6, 3) // the runs' sample variance
		base /= 3
		full := draw()
		if i >= 50 && i < 50+broken {
			p, full = 0, 0
		}
		o := Observation{Index: i, BaseMean: base, BaseRuns: 3, CandMean: full, CandRuns: 1}
		if base == 1 && full == 0 {
			rounds := make([]float64, 4)
			sum := full
			for r := range rounds {
				rounds[r] = draw()
				sum += rounds[r]
			}
			o.Rounds, o.FullMean, o.FullRuns = rounds, full, 1
			o.CandMean, o.CandRuns = sum/5, 5
		}
		obs[i] = o
	}
	return measureObs(t, &fit, obs)
}

// In model A the flaky items that passed three baseline runs and failed the full run
// pass a re-run half the time. The prior fitted to three runs predicts 0.72 for them
// on average (332 of these 400 unchanged suites re-run any), and their re-runs read as
// a drop: with the floor off the replication test rejects "nothing changed" at 5 % in
// 79 of 400 (19.8 %). The floor reads E[p | 2 passes, 1 fail] from the suite's own
// patterns, 0.5 here: the predictions average 0.49 and the test rejects in 10 of 400
// (2.5 %); checked: at most 6.5 % (5 % and the binomial noise of 400 trials, ±1.1 %,
// with room), and a mean within 0.06 of 0.5. A break of 8
// always-pass items that fail the full run and every re-run still rejects at 0.1 % in
// every one of 50 suites.
func TestFloorKeepsPointFlakyItemsHonest(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const trials = 400
	rejects, n := 0, 0
	var pred float64
	for range trials {
		r := modelASuite(t, rng, 0)
		if r.Replication == nil {
			continue
		}
		n++
		pred += r.Replication.Predicted
		if r.Replication.PValue < 0.05 {
			rejects++
		}
	}
	if mean := pred / float64(n); math.Abs(mean-0.5) > 0.06 {
		t.Errorf("mean prediction of the re-run flaky items %.3f over %d suites; want 0.5 ± 0.06", mean, n)
	}
	if rate := float64(rejects) / trials; rate > 0.065 {
		t.Errorf("unchanged: the replication test rejected at 5 %% in %d of %d suites (%.1f %%); want ≤ 6.5 %%", rejects, trials, 100*rate)
	}
	for k := range 50 {
		r := modelASuite(t, rng, 8)
		if r.Replication == nil || r.Replication.PValue >= 0.001 {
			t.Fatalf("suite %d, 8 items broken: replication %+v; want p < 0.001", k, r.Replication)
		}
	}
}

// Suites the floor was not built on, unchanged, 400 each, the same reading: flaky items
// at two pass rates (15 at 0.3, 15 at 0.8) beside stable items at exactly 0 and 1;
// model B (stable items at 0.97 and 0.03, flaky at 0.5); and flaky items spread evenly
// over [0.05, 0.95] (30 % of the suite). The replication test must reject "nothing
// changed" at 5 % in at most 6.5 % of them (5 % and 400 trials' binomial noise, with
// room). Measured: 9, 3 and 9 of 400 (2.2 %, 0.8 %, 2.2 %); with the floor off 18, 8
// and 28 (the spread suite, 7.0 %, fails this test without it).
func TestFloorHoldsOnOtherSuites(t *testing.T) {
	suites := map[string]func(int) float64{
		"two rates": func(i int) float64 {
			switch {
			case i < 15:
				return 0.3
			case i < 30:
				return 0.8
			case i < 50:
				return 0
			}
			return 1
		},
		"model B": func(i int) float64 {
			switch {
			case i < 30:
				return 0.5
			case i < 50:
				return 0.03
			}
			return 0.97
		},
		"spread": func(i int) float64 {
			switch {
			case i < 60:
				return 0.05 + 0.9*float64(i)/59
			case i < 70:
				return 0
			}
			return 1
		},
	}
	for name, at := range suites {
		rng := rand.New(rand.NewPCG(3, 5))
		rejects := 0
		for range 400 {
			if r := pointSuite(t, rng, 0, at); r.Replication != nil && r.Replication.PValue < 0.05 {
				rejects++
			}
		}
		if rejects > 26 {
			t.Errorf("%s, unchanged: the replication test rejected at 5 %% in %d of 400; want ≤ 26 (6.5 %%)", name, rejects)
		}
	}
}
