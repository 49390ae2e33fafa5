package stats

import (
	"math/bits"
	"math/rand/v2"
)

// Random draws. Every resampling procedure here draws from PCG (math/rand/v2's
// PCG-DXSM) and turns its 64-bit outputs into what it needs with code in this package:
// bounded integers by Lemire's multiply-shift with rejection ("Fast Random Integer
// Generation in an Interval", 2019), signs from single bits. Nothing goes through
// rand.Rand, whose derived algorithms the standard library does not promise to keep, so
// every interval and p-value evalgate has printed is fixed by this code and PCG alone.

// newPCG returns a PCG generator by value, so the resampling loops keep it on the stack.
func newPCG(seed1, seed2 uint64) rand.PCG {
	var p rand.PCG
	p.Seed(seed1, seed2)
	return p
}

// uintNReject finishes uintN when the first draw's low word fell below n: it redraws
// while the low word is below 2^64 mod n, the values that would make some results more
// likely than others.
func uintNReject(p *rand.PCG, n, hi, lo uint64) uint64 {
	threshold := -n % n
	for lo < threshold {
		hi, lo = bits.Mul64(p.Uint64(), n)
	}
	return hi
}
