package rubric

import "testing"

// A failing score is printed below its minimum, never rounded up to it.
func TestScoreBelowNeverReadsAsTheMinimum(t *testing.T) {
	for _, c := range []struct {
		score, min float64
		want       string
	}{
		{0.5, 0.8, "score 0.500 < 0.8"},
		// 0.7996 at three decimals is 0.800, which is not below 0.8: the shortest
		// figure that is (Round9 keeps 0.7996).
		{0.7996, 0.8, "score 0.7996 < 0.8"},
		{0.79999, 0.8, "score 0.79999 < 0.8"},
		// Three decimals already show these below: 0.6665 is 0.66649999… in binary
		// (0.666), and 0.9994 is 0.999.
		{0.6665, 2.0 / 3, "score 0.666 < 0.6666666666666666"},
		{0.9994, 1, "score 0.999 < 1"},
		// 0.9996 rounds to 1.000: printed as it is.
		{0.9996, 1, "score 0.9996 < 1"},
	} {
		if got := scoreBelow(c.score, c.min); got != c.want {
			t.Errorf("scoreBelow(%v, %v) = %q; want %q", c.score, c.min, got, c.want)
		}
	}
}
