package report

import (
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
)

// A dimension that is n/a on some items in some runs (a promptfoo assertion on a call
// that errored in one run) has two means: the report's, over the runs' means (run 1
// 4/6, runs 2 and 3 3/5: 0.622), and the comparison's, over the compared items it
// applies to on both sides (4 of 6 items at 1: 0.667), from which its change is taken.
// Checked against a baseline of the same files, the table must not read "baseline
// 0.667 · score 0.622 · ±0.0 pts": the score column is the comparison's, as the
// baseline column and the change are.
func TestComparedDimensionRowIsTheComparisons(t *testing.T) {
	five := 16.0 / 3
	r := &Report{
		Summary:    Summary{Items: 7, Runs: 3, Mean: 0.605},
		Dimensions: []Dimension{{Name: "correct", Weight: 1, Mean: 0.622222222, Items: &five}},
		Comparison: &baseline.Comparison{Base: 0.605, Cand: 0.605,
			Dimensions: []baseline.DimensionDelta{{Name: "correct", Base: 4.0 / 6, Cand: 4.0 / 6, Delta: 0, Items: 6}}},
	}
	rows := r.dimensionRows(statusIcon)
	if got := rows[0]; got.base != "0.667" || got.cand != "0.667" || got.change != "±0.0 pts" {
		t.Errorf("row baseline %s, score %s, change %s; want 0.667, 0.667, ±0.0 pts", got.base, got.cand, got.change)
	}
	// Not compared: the report's own mean.
	r.Comparison = nil
	if got := r.dimensionRows(statusIcon)[0].cand; got != "0.622" {
		t.Errorf("uncompared score %s; want 0.622", got)
	}
}

// A dimension n/a on every compared item has no change to show: its Δ column (the
// terminal table's and the pull-request comment's) reads n/a, as its baseline does,
// not "±0.0 pts", a change measured as none.
func TestComparedNADimensionHasNoChange(t *testing.T) {
	r := &Report{
		Summary:    Summary{Items: 7, Runs: 3, Mean: 0.605},
		Dimensions: []Dimension{{Name: "ghost", Weight: 0.1, NA: true}},
		Comparison: &baseline.Comparison{Base: 0.605, Cand: 0.605,
			Dimensions: []baseline.DimensionDelta{{Name: "ghost", NA: true}}},
	}
	if got := r.dimensionRows(statusIcon)[0]; got.base != "n/a" || got.cand != "n/a" || got.change != "n/a" || got.delta != "n/a" {
		t.Errorf("row baseline %q, score %q, change %q, delta %q; want n/a throughout", got.base, got.cand, got.change, got.delta)
	}
}
