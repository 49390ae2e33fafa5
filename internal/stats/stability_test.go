package stats

import "testing"

func TestUnstable(t *testing.T) {
	t.Parallel()
	// Only rates strictly inside (0, 1) are unstable: 2/3, 1/3 and 0.5, not 0 or 1.
	for rate, want := range map[float64]bool{1: false, 0: false, 2.0 / 3: true, 1.0 / 3: true, 0.5: true} {
		if got := Unstable(rate); got != want {
			t.Errorf("Unstable(%v) = %v; want %v", rate, got, want)
		}
	}
}
