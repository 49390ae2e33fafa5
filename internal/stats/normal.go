package stats

import (
	"math"
)

// zQuantile returns z with P(|Z| ≤ z) = level for a standard normal Z.
func zQuantile(level float64) float64 { return math.Sqrt2 * math.Erfinv(level) }

// Z95 is the two-sided 95 % critical value of the standard normal, zQuantile(0.95): an
// interval of ±Z95 standard errors holds the true value 95 % of the time. Every 95 %
// interval and decision in evalgate uses this one constant.
const Z95 = 1.959963984540054
