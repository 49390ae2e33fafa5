package gate

import (
	"fmt"
	"math"
)

// Unit is the unit a regression mode prints: points of the 0–1 score, or percent.
func Unit(mode string) string {
	if mode == Relative {
		return "%"
	}
	return "pts"
}

// FormatPts prints a change of the 0–1 score in points with its sign: "−2.4 pts".
func FormatPts(x float64) string { return signed(x*100, 1) + " pts" }

// FormatPct prints a relative change in percent with its sign: "−2.5 %".
func FormatPct(x float64) string { return signed(x*100, 1) + " %" }

// FormatDelta prints a delta in the unit of the mode, with the other unit after it.
func FormatDelta(abs, rel float64, mode string) string {
	if mode == Relative {
		return FormatPct(rel) + " (" + FormatPts(abs) + ")"
	}
	return FormatPts(abs) + " (" + FormatPct(rel) + ")"
}

// FormatDrop prints an allowed drop with its unit: "2.0 pts" or "2.0 %".
func FormatDrop(x float64, mode string) string {
	return fmt.Sprintf("%.1f %s", x*100, Unit(mode))
}

// signed prints x with a real minus sign (U+2212) or a plus.
func signed(x float64, prec int) string {
	r := math.Round(x*math.Pow10(prec)) / math.Pow10(prec)
	if r == 0 {
		return fmt.Sprintf("±%.*f", prec, 0.0)
	}
	if r < 0 {
		return fmt.Sprintf("−%.*f", prec, -r)
	}
	return fmt.Sprintf("+%.*f", prec, r)
}
