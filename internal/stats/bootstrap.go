package stats

import (
	"math/bits"
	"slices"
)

// bootstrapper keeps the buffer of resampled means between calls, so a caller that
// bootstraps many times (the simulation) allocates it once.
type bootstrapper struct {
	means []float64
}

// interval is the percentile bootstrap interval of the mean of diffs (the tests'
// PairedBootstrap) on checked, defaulted options and non-empty diffs.
func (b *bootstrapper) interval(diffs []float64, opts ResampleOptions) Interval {
	if cap(b.means) < opts.Resamples {
		b.means = make([]float64, opts.Resamples)
	}
	means := b.means[:opts.Resamples]
	rng := newPCG(opts.Seed1, opts.Seed2)
	n := uint64(len(diffs))
	fn := float64(len(diffs))
	for r := range means {
		var sum float64
		for range n {
			// A uniform index in [0, n) by Lemire's method (uintNReject for the rare
			// rejection), written inline.
			hi, lo := bits.Mul64(rng.Uint64(), n)
			if lo < n {
				hi = uintNReject(&rng, n, hi, lo)
			}
			sum += diffs[hi]
		}
		means[r] = sum / fn
	}
	slices.Sort(means)
	tail := (1 - opts.Level) / 2
	return Interval{
		Lo:        quantileSorted(means, tail),
		Hi:        quantileSorted(means, 1-tail),
		Level:     opts.Level,
		Resamples: opts.Resamples,
	}
}
