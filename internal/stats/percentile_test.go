package stats

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPercentile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		xs     []float64
		p      float64
		want   float64
		wantOK bool
	}{
		// Type 7: h = (n−1)·p/100, then interpolate between x[⌊h⌋] and x[⌊h⌋+1] (sorted).
		// {1,2,3,4}, p=50: h = 3·0.5 = 1.5 → 2 + 0.5·(3−2) = 2.5.
		{name: "median of even count", xs: []float64{4, 1, 3, 2}, p: 50, want: 2.5, wantOK: true},
		// p=95: h = 3·0.95 = 2.85 → 3 + 0.85·(4−3) = 3.85 (numpy.percentile gives 3.85;
		// the nearest-rank rule would give 4).
		{name: "p95 interpolates", xs: []float64{4, 1, 3, 2}, p: 95, want: 3.85, wantOK: true},
		// p=25 of {10,20,30,40,50}: h = 4·0.25 = 1 exactly → x[1] = 20.
		{name: "exact rank", xs: []float64{50, 40, 30, 20, 10}, p: 25, want: 20, wantOK: true},
		{name: "p0 is the min", xs: []float64{3, 1, 2}, p: 0, want: 1, wantOK: true},
		{name: "p100 is the max", xs: []float64{3, 1, 2}, p: 100, want: 3, wantOK: true},
		{name: "single value", xs: []float64{7}, p: 95, want: 7, wantOK: true},
		// Latencies 120, 180, 200, 250, 900 ms: p95 h = 4·0.95 = 3.8 → 250 + 0.8·650 = 770.
		{name: "latency p95", xs: []float64{200, 120, 900, 180, 250}, p: 95, want: 770, wantOK: true},
		{name: "empty", xs: nil, p: 50, want: 0, wantOK: false},
		{name: "p below 0", xs: []float64{1}, p: -1, want: 0, wantOK: false},
		{name: "p above 100", xs: []float64{1}, p: 100.5, want: 0, wantOK: false},
		{name: "p NaN", xs: []float64{1}, p: math.NaN(), want: 0, wantOK: false},
	}
	for _, tt := range tests {
		got, ok := Percentile(tt.xs, tt.p)
		if ok != tt.wantOK || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: Percentile(%v, %v) = %v, %v; want %v, %v", tt.name, tt.xs, tt.p, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestPercentileP50P95(t *testing.T) {
	t.Parallel()
	xs := []float64{5, 1, 4, 2, 3} // sorted 1..5
	// P50: h = 4·0.5 = 2 → 3. P95: h = 4·0.95 = 3.8 → 4 + 0.8·1 = 4.8.
	if got, ok := Percentile(xs, 50); !ok || got != 3 {
		t.Errorf("p50 = %v, %v; want 3, true", got, ok)
	}
	if got, ok := Percentile(xs, 95); !ok || math.Abs(got-4.8) > 1e-12 {
		t.Errorf("p95 = %v, %v; want 4.8, true", got, ok)
	}
	if diff := cmp.Diff([]float64{5, 1, 4, 2, 3}, xs); diff != "" {
		t.Errorf("Percentile modified its input (-want +got):\n%s", diff)
	}
}
