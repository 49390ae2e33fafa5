package stats

import (
	"fmt"
	"slices"
)

// MaxExactBootstrapN is the largest n ExactBootstrapCI accepts: 7^7 = 823,543
// resamples, a few megabytes and milliseconds.
const MaxExactBootstrapN = 7

// ExactBootstrapCI returns the percentile bootstrap interval of the mean of diffs with
// no Monte Carlo error: it enumerates all n^n equally likely resamples (ordered draws of
// n items with replacement) and reads the interval from their means exactly as
// PairedBootstrap does. It exists to check PairedBootstrap on tiny datasets whose answer
// can also be worked out by hand; n must be at most MaxExactBootstrapN.
func ExactBootstrapCI(diffs []float64, level float64) (Interval, error) {
	n := len(diffs)
	if n == 0 {
		return Interval{}, errEmpty
	}
	if n > MaxExactBootstrapN {
		return Interval{}, fmt.Errorf("exact bootstrap of %d items would need %d^%d resamples; want at most %d items", n, n, n, MaxExactBootstrapN)
	}
	if err := checkLevel(level); err != nil {
		return Interval{}, err
	}
	total := 1
	for range n {
		total *= n
	}
	means := make([]float64, 0, total)
	idx := make([]int, n) // an odometer over {0..n-1}^n
	for {
		var sum float64
		for _, i := range idx {
			sum += diffs[i]
		}
		means = append(means, sum/float64(n))
		k := 0
		for k < n && idx[k] == n-1 {
			idx[k] = 0
			k++
		}
		if k == n {
			break
		}
		idx[k]++
	}
	slices.Sort(means)
	tail := (1 - level) / 2
	return Interval{
		Lo:        quantileSorted(means, tail),
		Hi:        quantileSorted(means, 1-tail),
		Level:     level,
		Resamples: total,
	}, nil
}
