package stats

import (
	"errors"
	"math"
)

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

// zQuantile returns z with P(|Z| ≤ z) = level for a standard normal Z.
func zQuantile(level float64) float64 { return math.Sqrt2 * math.Erfinv(level) }

// Z95 is the two-sided 95 % critical value of the standard normal, zQuantile(0.95): an
// interval of ±Z95 standard errors holds the true value 95 % of the time. Every 95 %
// interval and decision in evalgate uses this one constant.
const Z95 = 1.959963984540054
