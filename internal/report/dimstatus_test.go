package report

import (
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
)

// The breakdown's status column counts a dimension's failing items against the
// baseline's in whole items: "2 failing, +1" where one more fails, and where none fails
// any more "✓ 1 fixed", not "0 failing, −1".
func TestDimensionStatusCountsAgainstTheBaseline(t *testing.T) {
	for _, c := range []struct {
		now, base float64 // failing items, a mean over runs
		want      string
	}{
		{2, 1, "2 failing, +1"},
		{1, 1, "1 failing, ±0"},
		{1, 3, "1 failing, −2"},
		{0, 1, "✓ 1 fixed"},
		{0, 2.4, "✓ 2 fixed"}, // 2.4 failing on average over the baseline's runs: 2 items
		{0, 0, "✓"},
	} {
		bf := c.base
		r := &Report{Dimensions: []Dimension{{Name: "d", Weight: 1, Failures: c.now}},
			Comparison: &baseline.Comparison{Dimensions: []baseline.DimensionDelta{{Name: "d", BaseFailures: &bf}}}}
		if got := r.dimensionRows(termIcon)[0].status; got != c.want {
			t.Errorf("%v failing now, %v in the baseline: %q; want %q", c.now, c.base, got, c.want)
		}
	}
}
