package baseline

import "testing"

func TestDiffers(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    *Comparison
		want bool
	}{
		{"no comparison: nothing says it is the same", nil, true},
		{"the same", &Comparison{Dimensions: []DimensionDelta{{Delta: 0}}}, false},
		{"the mean moved", &Comparison{Delta: -0.001}, true},
		{"a dimension moved, the mean not", &Comparison{Dimensions: []DimensionDelta{{Delta: 0}, {Delta: 0.02}}}, true},
		{"an item newly fails", &Comparison{NewlyFailing: []ItemChange{{ID: "a"}}}, true},
		{"an item newly passes", &Comparison{NewlyPassing: []ItemChange{{ID: "a"}}}, true},
	} {
		if got := tt.c.Differs(); got != tt.want {
			t.Errorf("%s: Differs() = %v; want %v", tt.name, got, tt.want)
		}
	}
}
