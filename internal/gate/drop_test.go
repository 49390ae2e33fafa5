package gate

import "testing"

func TestDropExceeds(t *testing.T) {
	t.Parallel()
	// Variables, not constants: Go evaluates constant expressions exactly. 0.14 − 0.12
	// is 0.020000000000000018 in float64, above 0.02 by noise alone. (0.95 − 0.93
	// subtracted directly happens to land below, at 0.019999999999999907; computed as
	// means of item scores it lands above: TestRegressionDrop.)
	hi, lo := 0.14, 0.12
	noisy := hi - lo
	if !(noisy > 0.02) {
		t.Fatalf("0.14 − 0.12 = %v is not above 0.02 in float64: the rounding case would test nothing", noisy)
	}
	tests := []struct {
		name          string
		drop, maxDrop float64
		want          bool
	}{
		// On the 1e-9 grid 0.020000000000000018 and 0.02 are both 20,000,000 steps, so
		// not strictly greater.
		{name: "0.14 to 0.12 is exactly the limit", drop: noisy, maxDrop: 0.02, want: false},
		// 0.0200000011 is 20,000,001.1 steps → 20,000,001 > 20,000,000: a real excess.
		{name: "just over the grid", drop: 0.0200000011, maxDrop: 0.02, want: true},
		// 0.0200000004 is 20,000,000.4 steps → 20,000,000: not over.
		{name: "under half a step over", drop: 0.0200000004, maxDrop: 0.02, want: false},
		{name: "clearly over", drop: 0.024, maxDrop: 0.02, want: true},
		{name: "a rise", drop: -0.03, maxDrop: 0.02, want: false},
		// max_drop 0 blocks any drop of at least a grid step, and nothing smaller.
		{name: "zero tolerance, real drop", drop: 0.001, maxDrop: 0, want: true},
		{name: "zero tolerance, float noise", drop: 1e-12, maxDrop: 0, want: false},
	}
	for _, tt := range tests {
		if got := DropExceeds(tt.drop, tt.maxDrop); got != tt.want {
			t.Errorf("%s: DropExceeds(%v, %v) = %v; want %v", tt.name, tt.drop, tt.maxDrop, got, tt.want)
		}
	}
}
