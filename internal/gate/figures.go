package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A comparison printed beside its outcome must read true at the precision it is printed:
// "2.0 pts > 2.0 pts" or "p = 0.05 < 0.05" must never appear. The decision is made on the
// figures as computed (a drop after rounding to 1e-9, DropExceeds); the printing then
// adds decimals until the printed figures show the same relation.

// maxDropDecimals bounds the decimals of a drop in points: 7 decimals of a point is the
// 1e-9 of the 0–1 score DropExceeds rounds to.
const maxDropDecimals = 7

// FormatComparison prints value and threshold (fractions in the mode's unit) with one
// decimal and the unit, or with as many more decimals as it takes for the printed figures
// to differ when exceeded says they do: "2.0 pts", "2.04 pts > 2.00 pts".
func FormatComparison(value, threshold float64, exceeded bool, mode string) (v, t string) {
	for prec := 1; ; prec++ {
		rv, rt := roundTo(value*100, prec), roundTo(threshold*100, prec)
		if (rv > rt) == exceeded || prec == maxDropDecimals {
			return dropAt(rv, prec, mode), dropAt(rt, prec, mode)
		}
	}
}

// roundTo rounds x to prec decimals.
func roundTo(x float64, prec int) float64 {
	p := math.Pow10(prec)
	return math.Round(x*p) / p
}

// dropAt prints x (already in points or percent) with prec decimals and a real minus.
func dropAt(x float64, prec int, mode string) string {
	if x == 0 {
		x = 0 // no "-0.0"
	}
	s := strconv.FormatFloat(x, 'f', prec, 64)
	return strings.Replace(s, "-", "−", 1) + " " + Unit(mode)
}

// FormatPValue prints a one-sided p-value for comparison with alpha so that the printed
// figure shows the relation the decision used (rejects: p < alpha): two significant
// digits, more when two would round onto the other side of alpha.
func FormatPValue(p, alpha float64, rejects bool) string {
	if rejects && p < 0.0001 && alpha > 0.0001 {
		return "p < 0.0001"
	}
	for digits := 2; digits <= 17; digits++ {
		s := strconv.FormatFloat(p, 'g', digits, 64)
		r, _ := strconv.ParseFloat(s, 64)
		if (r < alpha) == rejects {
			return "p = " + s
		}
	}
	return fmt.Sprintf("p = %v", p)
}
