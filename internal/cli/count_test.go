package cli

import "testing"

// validate's summary counts in English: "1 dimension", "1 gate" (it printed "1
// dimensions" and "1 gates").
func TestCountIsSingularForOne(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{{0, "gate", "0 gates"}, {1, "dimension", "1 dimension"}, {1, "gate", "1 gate"}, {3, "dimension", "3 dimensions"}} {
		if got := count(c.n, c.noun); got != c.want {
			t.Errorf("count(%d, %q) = %q; want %q", c.n, c.noun, got, c.want)
		}
	}
}
