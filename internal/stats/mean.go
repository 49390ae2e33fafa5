package stats

import "math"

// Mean returns the arithmetic mean of xs, or 0 when xs is empty. Callers that must tell
// "no data" from a mean of 0 check len(xs) themselves.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// SampleStd returns the sample standard deviation of xs, with the n − 1 (Bessel)
// denominator, as DESIGN.md fixes for the spread of per-run scores. It returns 0 when
// len(xs) < 2, where the spread is undefined.
func SampleStd(xs []float64) float64 {
	n := len(xs)
	if n < 2 {
		return 0
	}
	m := Mean(xs)
	var ss float64
	for _, x := range xs {
		d := x - m
		ss += d * d
	}
	return math.Sqrt(ss / float64(n-1))
}
