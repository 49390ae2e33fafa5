package stats

import (
	"math/bits"
	"slices"
)

// PairedBootstrap returns a percentile bootstrap confidence interval for the mean of
// diffs, the paired per-item differences candidate − baseline. It draws opts.Resamples
// resamples of len(diffs) items with replacement (items, not runs, are the unit: the
// pairing is kept because each resampled item brings its own difference), takes each
// resample's mean, and reads the interval's ends as the (1−level)/2 and (1+level)/2
// quantiles of those means with Percentile's type-7 rule.
//
// The generator is PCG seeded (opts.Seed1, opts.Seed2), (42, 42) by default, so identical
// input gives an identical interval. The only allocation is the buffer of resampled
// means.
func PairedBootstrap(diffs []float64, opts ResampleOptions) (Interval, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return Interval{}, err
	}
	if len(diffs) == 0 {
		return Interval{}, errEmpty
	}
	var b bootstrapper
	return b.interval(diffs, opts), nil
}

// bootstrapper keeps the buffer of resampled means between calls, so a caller that
// bootstraps many times (the simulation) allocates it once.
type bootstrapper struct {
	means []float64
}

// interval is PairedBootstrap on checked, defaulted options and non-empty diffs.
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
			// uintN(&rng, n), written inline.
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
