package stats

import "math"

// quantileSorted is the q-th quantile (q in [0, 1]) of already sorted, non-empty data
// by linear interpolation between the closest ranks: with the values x[0..n-1],
// h = (n−1)·q and the result is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). This is Hyndman &
// Fan's type 7, the default of numpy.percentile, R's quantile and spreadsheets'
// PERCENTILE, so a user who checks a figure with any of them gets the same number (the
// tests' Percentile is this rule over a slice).
func quantileSorted(sorted []float64, q float64) float64 {
	h := float64(len(sorted)-1) * q
	lo := math.Floor(h)
	i := int(lo)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-lo)*(sorted[i+1]-sorted[i])
}
