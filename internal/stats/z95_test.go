package stats

import (
	"math"
	"testing"
)

// Z95 is the quantile that zQuantile computes for 0.95: √2·erfinv(0.95) = 1.959963984540054.
func TestZ95(t *testing.T) {
	if got := zQuantile(0.95); math.Abs(got-Z95) > 1e-15 {
		t.Errorf("zQuantile(0.95) = %.17g; Z95 = %.17g", got, Z95)
	}
}
