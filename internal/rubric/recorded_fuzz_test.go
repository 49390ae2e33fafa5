package rubric

import (
	"math"
	"sort"
	"testing"
)

// FuzzParseRaw: a recorded value in a results file (outside input: a number, a word or
// a bool) on any scale is refused or a value whose normalized score is finite and in
// [0, 1]; an excluded value (n/a, stale) has no score at all.
func FuzzParseRaw(f *testing.F) {
	for _, s := range []string{"pass", "FAIL", "n/a", "stale", "maybe", ""} {
		f.Add(s, 0.0, uint8(0))
	}
	for _, x := range []float64{0, 1, 2, 5, 10, 0.5, -1, 11, 1e308, math.Inf(1), math.NaN(), math.Copysign(0, -1)} {
		f.Add("", x, uint8(1))
	}
	f.Add("", 0.0, uint8(2))
	names := make([]string, 0, len(scales))
	for n := range scales {
		names = append(names, n)
	}
	sort.Strings(names)
	f.Fuzz(func(t *testing.T, word string, x float64, kind uint8) {
		var v any
		switch kind % 3 {
		case 0:
			v = word
		case 1:
			v = x
		case 2:
			v = x > 0.5
		}
		for _, n := range names {
			for _, byMax := range []bool{false, true} {
				val, err := parseRaw(v, scales[n], byMax, "k")
				if err != nil {
					continue
				}
				if val.Excluded {
					if val.Raw != nil {
						t.Fatalf("%s: %#v is excluded yet carries %v", n, v, *val.Raw)
					}
					continue
				}
				if math.IsNaN(val.Norm) || val.Norm < 0 || val.Norm > 1 {
					t.Fatalf("%s (by max %v): %#v normalizes to %v", n, byMax, v, val.Norm)
				}
			}
		}
	})
}
