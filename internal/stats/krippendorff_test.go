package stats

import (
	"math"
	"testing"
)

var nan = math.NaN()

// byCoder turns reliability data written coder by coder (rows, as Krippendorff prints
// it) into units.
func byCoder(rows [][]float64) [][]float64 {
	units := make([][]float64, len(rows[0]))
	for u := range units {
		for _, r := range rows {
			units[u] = append(units[u], r[u])
		}
	}
	return units
}

// Krippendorff, K. (2011). "Computing Krippendorff's Alpha-Reliability". Annenberg
// School for Communication, University of Pennsylvania, departmental paper 43
// (https://repository.upenn.edu/asc_papers/43). Section C's data: 4 observers, 12 units,
// values 1–5, missing values; unit 12 has one value and is not pairable. The paper's
// results, to three decimals: α_nominal = 0.743, α_ordinal = 0.815, α_interval = 0.849,
// α_ratio = 0.797. Section A's data: 2 observers, 10 units, binary: α = 0.095.
func TestKrippendorffAlphaPublishedExamples(t *testing.T) {
	c := byCoder([][]float64{
		{1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan},
		{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3},
		{nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan},
		{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan},
	})
	for _, tc := range []struct {
		level Level
		want  float64
	}{{LevelNominal, 0.743}, {LevelOrdinal, 0.815}, {LevelInterval, 0.849}, {LevelRatio, 0.797}} {
		a, err := KrippendorffAlpha(c, tc.level)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(a.Alpha-tc.want) > 0.0005 {
			t.Errorf("%s: α = %.4f; the paper gives %.3f", tc.level, a.Alpha, tc.want)
		}
		// 11 pairable units holding 40 values (the paper's n = 40).
		if a.Units != 11 || a.Values != 40 {
			t.Errorf("%s: %d units, %d values; want 11 and 40", tc.level, a.Units, a.Values)
		}
	}
	// Section A: o_00 = 10, o_01 = o_10 = 4, o_11 = 2, n = 20, n_0 = 14, n_1 = 6:
	// α = 1 − (n − 1)·o_01/(n_0·n_1) = 1 − 19·4/84 = 0.0952.
	a, err := KrippendorffAlpha(byCoder([][]float64{
		{0, 1, 0, 0, 0, 0, 0, 0, 1, 0},
		{1, 1, 1, 0, 0, 1, 0, 0, 0, 0},
	}), LevelNominal)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 - 19.0*4/84; math.Abs(a.Alpha-want) > 1e-12 {
		t.Errorf("binary: α = %.6f; want %.6f (the paper: 0.095)", a.Alpha, want)
	}
}

func TestKrippendorffAlphaEdges(t *testing.T) {
	// Perfect agreement on varied values: α = 1.
	if a, _ := KrippendorffAlpha([][]float64{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}}, LevelInterval); a.Alpha != 1 {
		t.Errorf("perfect agreement: α = %v", a.Alpha)
	}
	// Every value the same: D_e = 0, α undefined (NaN), not 1.
	if a, _ := KrippendorffAlpha([][]float64{{2, 2}, {2, 2}}, LevelInterval); !math.IsNaN(a.Alpha) {
		t.Errorf("no variation: α = %v; want NaN", a.Alpha)
	}
	if _, err := KrippendorffAlpha([][]float64{{1, nan}, {nan}}, LevelNominal); err == nil {
		t.Error("no pairable unit: want an error")
	}
	if _, err := KrippendorffAlpha([][]float64{{1, 2}}, "fuzzy"); err == nil {
		t.Error("unknown level: want an error")
	}
	// Exact agreement: unit 1 has 3 pairs, all equal; unit 2 has 3 pairs, one equal
	// (the two 1s): 4 of 6.
	if got := ExactAgreement([][]float64{{2, 2, 2}, {1, 1, 0}}); math.Abs(got-4.0/6) > 1e-12 {
		t.Errorf("exact agreement %v; want 4/6", got)
	}
}
