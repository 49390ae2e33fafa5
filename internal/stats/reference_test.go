package stats

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// The reference implementations the tests check the production code against: the
// textbook forms (a bootstrap interval of a slice, the normal interval, the exact
// enumeration, a percentile of a slice, evidence measured over slices) that the
// program computes in streaming or inlined form.

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

// NormalCI returns the normal-approximation interval mean ± z·s/√n, where s is
// SampleStd and z the standard normal quantile of (1+level)/2 (1.959964 at 95%). It is
// the textbook cross-check for PairedBootstrap: the two agree when n is large and the
// differences are not very skewed, and disagree, instructively, otherwise.
func NormalCI(xs []float64, level float64) (Interval, error) {
	if len(xs) < 2 {
		return Interval{}, errors.New("normal interval needs at least two values")
	}
	if err := checkLevel(level); err != nil {
		return Interval{}, err
	}
	m := Mean(xs)
	half := zQuantile(level) * SampleStd(xs) / math.Sqrt(float64(len(xs)))
	return Interval{Lo: m - half, Hi: m + half, Level: level}, nil
}

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

// Percentile returns the p-th percentile (p in [0, 100]) of xs by linear interpolation
// between the closest ranks: with the values sorted ascending as x[0..n-1], h = (n−1)·p/100
// and the result is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). This is Hyndman & Fan's
// type 7, the default of numpy.percentile, R's quantile and spreadsheets' PERCENTILE, so
// a user who checks a figure with any of them gets the same number.
//
// It reports false, with 0, when xs is empty or p is outside [0, 100] or NaN. xs is not
// modified. Inputs are assumed free of NaN.
func Percentile(xs []float64, p float64) (float64, bool) {
	if len(xs) == 0 || !(p >= 0 && p <= 100) {
		return 0, false
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	return quantileSorted(sorted, p/100), true
}

// MeasureEvidence fits the prior on the baseline items and measures every candidate
// item against it; baseVar holds the baseline's per-item sample variances over runs.
// The slices are paired by index.
func MeasureEvidence(obs []Observation, baseVar []float64, k int) (EvidenceResult, error) {
	if len(baseVar) != len(obs) {
		return EvidenceResult{}, fmt.Errorf("%d baseline variances for %d items", len(baseVar), len(obs))
	}
	var fit PriorFit
	for i, o := range obs {
		fit.Add(o.BaseMean, baseVar[i], o.BaseRuns)
	}
	acc := NewEvidenceAccumulator(fit.Prior(), k)
	for i, o := range obs {
		o.BaseVar = baseVar[i]
		acc.Add(o)
	}
	return acc.Result()
}

// uintN returns a uniform integer in [0, n), n > 0, by Lemire's method. Hot loops write
// its first two lines inline (the call would cost a third of their time) and call
// uintNReject for the rare rejection.
func uintN(p *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(p.Uint64(), n)
	if lo < n {
		hi = uintNReject(p, n, hi, lo)
	}
	return hi
}

// count is the number of values counted.
func (s *logSketch) count() int { return s.pos.total + s.neg.total + s.zero }
