package pricing

import (
	"fmt"
	"math"
	"strings"
)

// FormatUSD prints an amount of US dollars without the sign: two decimals from a
// dollar up ("1.12"), and enough significant digits below it that a small eval's cost
// does not print as 0.00 ("0.0042", "0.000018").
func FormatUSD(x float64) string {
	a := math.Abs(x)
	switch {
	case a == 0:
		return "0.00"
	case a >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	// two significant digits, at least two decimals
	dec := max(2, int(math.Ceil(-math.Log10(a)))+1)
	s := fmt.Sprintf("%.*f", dec, x)
	if strings.Contains(s, ".") && dec > 2 {
		s = strings.TrimRight(s, "0")
		if i := strings.IndexByte(s, '.'); len(s)-i-1 < 2 {
			s += strings.Repeat("0", 2-(len(s)-i-1))
		}
	}
	return s
}

// Dollars is FormatUSD with the sign: "$1.12", "-$0.03".
func Dollars(x float64) string {
	if x < 0 {
		return "-$" + FormatUSD(-x)
	}
	return "$" + FormatUSD(x)
}
