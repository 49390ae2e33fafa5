package stats

import "testing"

// candidateFloor raises the candidate's part of a guard's item-level variance to what
// its own runs show. By hand: the model's variance a = 10, of which
// the candidate's runs carry Σw²·pq/F = 2/3 (Σw²·pq = 2 per run); the runs show
// Σw²·s² = 8 per run, so over F = 3 runs the floor adds (8 − 2)/3 = 2: 12. Runs that
// show less than the model leave a alone, and so does a candidate without its own
// runs' measure (0).
func TestCandidateFloorByHand(t *testing.T) {
	for _, c := range []struct {
		within float64
		runs   int
		want   float64
	}{
		{8, 3, 12},
		{1, 3, 10},
		{0, 3, 10},
		{8, 0, 10},
	} {
		if got := candidateFloor(10, 2, c.within, c.runs); got != c.want {
			t.Errorf("candidateFloor(10, 2, within %v, %d runs) = %v; want %v", c.within, c.runs, got, c.want)
		}
	}
}

// An outage that struck every candidate run harder than any baseline run fails
// stable items here and there; a break fails the same items in every run. 79 items
// passed all 3 baseline runs and 21 passed 2 of 3 (so the runs show noise to judge
// against, 7 failing in each run); each candidate keeps the 21 as they were and has
// 3 runs with 10 failures among the 79 in each (the same mean). Scattered (different items in each run: every failing item's
// runs spread) both guards must hold back more than when the same 10 items
// fail every run, whose broken items show no spread across runs: their within-item
// variance is the flaky items' alone, as with no failures at all.
func TestCandidateFloorTellsScatteredFailuresFromABreak(t *testing.T) {
	guard := func(fails func(item, run int) bool) EvidenceResult {
		t.Helper()
		var fit PriorFit
		for k := range 100 {
			if k < 79 {
				fit.Add(1, 0, 3)
			} else {
				fit.Add(2.0/3, 1.0/3, 3)
			}
		}
		acc := NewEvidenceAccumulator(fit.Prior(), 5)
		for k := range 100 {
			if k >= 79 { // flaky: 2 of 3 in the baseline and in the candidate, 7 failing each run
				bits := uint64(0b111) &^ (1 << (k % 3))
				acc.Add(Observation{Index: k, BaseMean: 2.0 / 3, BaseRuns: 3, BaseVar: 1.0 / 3, BaseBits: 0b110, HasBits: true,
					CandMean: 2.0 / 3, CandRuns: 3, CandBits: bits, CandBitRuns: 3, CandHasBits: true})
				continue
			}
			var bits uint64
			passes := 0
			for r := range 3 {
				if !fails(k, r) {
					bits |= 1 << r
					passes++
				}
			}
			acc.Add(Observation{Index: k, BaseMean: 1, BaseRuns: 3, BaseVar: 0, BaseBits: 0b111, HasBits: true,
				CandMean: float64(passes) / 3, CandRuns: 3, CandBits: bits, CandBitRuns: 3, CandHasBits: true})
		}
		r, err := acc.Result()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	scattered := guard(func(k, r int) bool { return k >= 10*r && k < 10*r+10 })
	broken := guard(func(k, r int) bool { return k < 10 })
	if scattered.RunNoise == nil || scattered.RunNoise.CandWithinWeighted <= 0 {
		t.Fatalf("scattered failures: the candidate's runs measured no within-item variance: %+v", scattered.RunNoise)
	}
	unchanged := guard(func(int, int) bool { return false })
	if broken.RunNoise == nil || broken.RunNoise.CandWithinWeighted != unchanged.RunNoise.CandWithinWeighted {
		t.Fatalf("a break: the candidate's runs show within-item variance %+v; want the flaky items' alone, %v", broken.RunNoise, unchanged.RunNoise.CandWithinWeighted)
	}
	if !(scattered.GuardU > broken.GuardU) {
		t.Errorf("unweighted guard p: scattered failures %v, a break %v; want the scattered ones held back more", scattered.GuardU, broken.GuardU)
	}
	if !(scattered.GuardW > broken.GuardW) {
		t.Errorf("weighted guard p: scattered failures %v, a break %v; want the scattered ones held back more", scattered.GuardW, broken.GuardW)
	}
}
