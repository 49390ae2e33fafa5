package stats

import (
	"math/rand/v2"
	"testing"
)

// benchDiffs returns n paired differences shaped like a real comparison: mostly 0,
// some ±1 (items that flipped), some ±1/3 (flaky items over 3 runs).
func benchDiffs(n int) []float64 {
	rng := rand.New(rand.NewPCG(7, 7))
	values := []float64{0, 0, 0, 0, 0, 0, -1, 1, -1.0 / 3, 1.0 / 3}
	d := make([]float64, n)
	for i := range d {
		d[i] = values[rng.IntN(len(values))]
	}
	return d
}

// BenchmarkPairedBootstrap is the default interval (10,000 resamples) on 1,000 items:
// 10^7 indexed draws per op.
func BenchmarkPairedBootstrap(b *testing.B) {
	d := benchDiffs(1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PairedBootstrap(d, ResampleOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSignFlipTest is the default p-value (10,000 sign patterns) on 1,000 items.
func BenchmarkSignFlipTest(b *testing.B) {
	d := benchDiffs(1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SignFlipTest(d, ResampleOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
