package main

import (
	"math"
	"testing"
)

// The t reading's critical value at 1.5 % on 4 df, from the binned χ² distribution:
// t₄'s closed form P(T > t) = 1/2 − (3/4)·x·(1 − x²/3), x = t/√(4 + t²), gives
// 0.01497 at t = 3.298 (x = 0.8551), so the grid must land within 0.01 of 3.298.
// And the readings order as they must at δ = 3.2: the floored variance detects less
// than t on the spread, which detects less than a known variance.
func TestReadings(t *testing.T) {
	b := newBins(4)
	tc := b.tCrit(0.015)
	if math.Abs(tc-3.298) > 0.01 {
		t.Fatalf("t critical %v; want 3.298", tc)
	}
	floored := b.power(func(x float64) float64 { return tc * math.Sqrt(math.Max(1, x)) }, 3.2)
	spread := b.power(func(x float64) float64 { return tc * math.Sqrt(x) }, 3.2)
	z := phiBar(normalQuantile(0.015) - 3.2)
	if !(floored < spread && spread < z) {
		t.Errorf("floored %v, t on the spread %v, z %v: want them increasing", floored, spread, z)
	}
}
