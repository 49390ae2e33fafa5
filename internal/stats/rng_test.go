package stats

import (
	"math"
	"testing"
)

func TestUintN(t *testing.T) {
	t.Parallel()
	rng := newPCG(42, 42)
	// n = 1: the only value is 0.
	for range 100 {
		if v := uintN(&rng, 1); v != 0 {
			t.Fatalf("uintN(1) = %d", v)
		}
	}
	// n = 3, 30,000 draws: each value's count is Binomial(30000, 1/3), mean 10,000, sd
	// √(30000·(1/3)·(2/3)) = 81.6; 5 sd = 408.
	var counts [3]int
	for range 30000 {
		counts[uintN(&rng, 3)]++
	}
	for v, c := range counts {
		if math.Abs(float64(c)-10000) > 408 {
			t.Errorf("uintN(3) gave %d %d times in 30000; want 10000 ± 408", v, c)
		}
	}
	// n = 2^63 + 1: 2^64 mod n = 2^63 − 1, so about half the first draws are rejected;
	// every result must still be below n, and both halves of the range must occur.
	big := uint64(1)<<63 + 1
	var low, high int
	for range 1000 {
		v := uintN(&rng, big)
		if v >= big {
			t.Fatalf("uintN(2^63+1) = %d, out of range", v)
		}
		if v < big/2 {
			low++
		} else {
			high++
		}
	}
	if low < 400 || high < 400 { // each is Binomial(1000, ~1/2): sd 15.8, 400 is −6 sd
		t.Errorf("uintN(2^63+1): %d below half, %d above; want about 500 each", low, high)
	}
}
