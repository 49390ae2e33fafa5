package stats

import (
	"math"
	"testing"
)

func TestMeanAndSampleStd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		xs        []float64
		mean, std float64
	}{
		{name: "empty", xs: nil, mean: 0, std: 0},
		// One value: the mean is the value; n−1 = 0, so the std is defined as 0.
		{name: "one", xs: []float64{0.7}, mean: 0.7, std: 0},
		// Mean (2+4+4+4+5+5+7+9)/8 = 40/8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32;
		// sample variance 32/(8−1) = 4.571428…; std √4.571428… = 2.138089935…
		// (the population std would be √(32/8) = 2: the n−1 matters).
		{name: "textbook", xs: []float64{2, 4, 4, 4, 5, 5, 7, 9}, mean: 5, std: math.Sqrt(32.0 / 7)},
		// Three runs of a suite: mean (0.9+0.8+0.85)/3 = 0.85; deviations 0.05, −0.05, 0;
		// variance (0.0025+0.0025+0)/2 = 0.0025; std 0.05.
		{name: "three runs", xs: []float64{0.9, 0.8, 0.85}, mean: 0.85, std: 0.05},
	}
	for _, tt := range tests {
		if got := Mean(tt.xs); math.Abs(got-tt.mean) > 1e-12 {
			t.Errorf("%s: Mean = %v; want %v", tt.name, got, tt.mean)
		}
		if got := SampleStd(tt.xs); math.Abs(got-tt.std) > 1e-12 {
			t.Errorf("%s: SampleStd = %v; want %v", tt.name, got, tt.std)
		}
	}
}
