package stats

import (
	"math"
	"slices"
)

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

// quantileSorted is Percentile's type-7 rule for q in [0, 1] on already sorted,
// non-empty data.
func quantileSorted(sorted []float64, q float64) float64 {
	h := float64(len(sorted)-1) * q
	lo := math.Floor(h)
	i := int(lo)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-lo)*(sorted[i+1]-sorted[i])
}
