package stats

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSignFlipTest(t *testing.T) {
	t.Parallel()
	allDown := make([]float64, 100)
	for i := range allDown {
		allDown[i] = -0.1
	}
	tests := []struct {
		name  string
		diffs []float64
		opts  ResampleOptions
		want  SignFlipResult
	}{
		// Only the −0.6 can flip: the flipped means are −0.12 and +0.12. Both are as far
		// from 0 as observed (two-sided 2/2 = 1); one is ≤ −0.12 (one-sided 1/2).
		{
			name: "one break", diffs: oneBreak,
			want: SignFlipResult{TwoSided: 1, Less: 0.5, Resamples: 2, Exact: true},
		},
		// Sums of ±0.1 ±0.2 ±0.3 over the 8 patterns: −0.6, −0.4, −0.2, 0, 0, 0.2, 0.4,
		// 0.6. Observed −0.6: |s| ≥ 0.6 twice (2/8 = 0.25), s ≤ −0.6 once (1/8 = 0.125).
		{
			name: "three losses", diffs: []float64{-0.1, -0.2, -0.3},
			want: SignFlipResult{TwoSided: 0.25, Less: 0.125, Resamples: 8, Exact: true},
		},
		// Ties must survive float noise. Observed 0.1 + 0.2 − 0.1 = 0.2 (0.20000000000000004
		// in float64). The 8 sums are 0.2, 0, −0.2, −0.4, 0.4, 0.2, 0, −0.2: six have
		// |s| ≥ 0.2 (6/8 = 0.75) and seven have s ≤ 0.2 (7/8 = 0.875). Without the 1e-9
		// tolerance float64 counts only 4 of the first six.
		{
			name: "two-sided ties", diffs: []float64{0.1, 0.2, -0.1},
			want: SignFlipResult{TwoSided: 0.75, Less: 0.875, Resamples: 8, Exact: true},
		},
		// Observed 0.1 − 0.2 + 0.2 = 0.1. Sums 0.1, −0.1, 0.5, 0.3, −0.3, −0.5, 0.1, −0.1:
		// all have |s| ≥ 0.1 (1), six have s ≤ 0.1 (0.75); float64 alone counts five.
		{
			name: "one-sided ties", diffs: []float64{0.1, -0.2, 0.2},
			want: SignFlipResult{TwoSided: 1, Less: 0.75, Resamples: 8, Exact: true},
		},
		// Nothing moved: the single empty pattern is as extreme as observed.
		{
			name: "no change", diffs: []float64{0, 0, 0},
			want: SignFlipResult{TwoSided: 1, Less: 1, Resamples: 1, Exact: true},
		},
		// 100 items all −0.1: 2^100 patterns, so Monte Carlo. Only the identity pattern
		// (and its mirror, for two-sided) reaches |sum| = 10, probability 2^−99 per draw:
		// no hit in 10,000, so p = (1 + 0)/(1 + 10,000) for both.
		{
			name: "monte carlo, all down", diffs: allDown,
			want: SignFlipResult{TwoSided: 1.0 / 10001, Less: 1.0 / 10001, Resamples: 10000},
		},
	}
	for _, tt := range tests {
		got, err := SignFlipTest(tt.diffs, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-15 && b-a < 1e-15 })); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestSignFlipMonteCarloFloor: with fewer resamples than patterns the test samples,
// and (1 + hits)/(1 + R) is a multiple of 1/(1+R) that is never 0.
func TestSignFlipMonteCarloFloor(t *testing.T) {
	t.Parallel()
	got, err := SignFlipTest([]float64{-0.1, -0.2, -0.3}, ResampleOptions{Resamples: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got.Exact || got.Resamples != 4 {
		t.Errorf("got %+v; want a Monte Carlo result over 4 patterns", got)
	}
	for _, p := range []float64{got.TwoSided, got.Less} {
		if k := p * 5; p < 0.2 || p > 1 || k-float64(int(k+0.5)) > 1e-12 || float64(int(k+0.5))-k > 1e-12 {
			t.Errorf("p-value %v is not a multiple of 1/5 in [0.2, 1]", p)
		}
	}
}
