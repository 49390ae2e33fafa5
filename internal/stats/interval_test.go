package stats

import (
	"math"
	"testing"
)

// oneBreak is the smallest interesting comparison: five items, one fell from 1 to 0.4
// (difference −0.6), four did not move. Mean −0.6/5 = −0.12.
//
// Bootstrap by hand: a resample of 5 draws contains the broken item K times, K ~
// Binomial(5, 1/5), and its mean is −0.6·K/5 = −0.12·K. Of the 5^5 = 3125 equally likely
// ordered resamples, C(5,k)·4^(5−k) have K = k:
//
//	K=0: 1024 (mean 0)     K=1: 1280 (−0.12)   K=2: 640 (−0.24)
//	K=3:  160 (−0.36)      K=4:   20 (−0.48)   K=5:   1 (−0.60)
//
// Sorted ascending, K=5 is rank 0, K=4 ranks 1–20, K=3 ranks 21–180, …, K=0 ranks
// 2101–3124. The 95% percentile interval reads type-7 ranks h = 3124·0.025 = 78.1 (ranks
// 78 and 79 are both K=3: −0.36) and h = 3124·0.975 = 3045.9 (ranks 3045 and 3046 are
// both K=0: 0). So the exact interval is [−0.36, 0].
//
// With 10,000 random resamples the 2.5% point is still −0.36, because P(K ≥ 4) =
// (20+1)/3125 = 0.67% and P(K ≥ 3) = 181/3125 = 5.8% are far on either side of 2.5%; and
// the 97.5% point is still 0 because P(K = 0) = 32.8% ≫ 2.5%.
//
// Normal approximation: squared deviations from −0.12 are 0.48² = 0.2304 once and
// 0.12² = 0.0144 four times, total 0.288; s² = 0.288/4 = 0.072; s/√5 = √0.0144 = 0.12;
// z = 1.959964 → −0.12 ± 0.235196 = [−0.355196, 0.115196]. It disagrees with the
// bootstrap on the upper end because the differences are skewed: one big loss, no gain.
var oneBreak = []float64{-0.6, 0, 0, 0, 0}

func TestIntervalsOnOneBreak(t *testing.T) {
	t.Parallel()
	boot, err := PairedBootstrap(oneBreak, ResampleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exact, err := ExactBootstrapCI(oneBreak, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	normal, err := NormalCI(oneBreak, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	z := 1.959963984540054
	tests := []struct {
		name string
		got  Interval
		want Interval
	}{
		{"bootstrap", boot, Interval{Lo: -0.36, Hi: 0, Level: 0.95, Resamples: 10000}},
		{"exact", exact, Interval{Lo: -0.36, Hi: 0, Level: 0.95, Resamples: 3125}},
		{"normal", normal, Interval{Lo: -0.12 - z*0.12, Hi: -0.12 + z*0.12, Level: 0.95}},
	}
	for _, tt := range tests {
		if !closeInterval(tt.got, tt.want, 1e-12) {
			t.Errorf("%s: %+v; want %+v", tt.name, tt.got, tt.want)
		}
	}
	if boot.Hi < 0 {
		t.Error("one broken item in five is significant; the interval should reach 0")
	}
}

// TestExactBootstrapTwoItems works a whole enumeration by hand: diffs {−0.2, 0.1} have
// 2² = 4 ordered resamples with means −0.2, −0.05, −0.05, 0.1. Type 7 at 2.5%: h = 3·0.025
// = 0.075 → −0.2 + 0.075·0.15 = −0.18875; at 97.5%: h = 2.925 → −0.05 + 0.925·0.15 =
// 0.08875.
func TestExactBootstrapTwoItems(t *testing.T) {
	t.Parallel()
	got, err := ExactBootstrapCI([]float64{-0.2, 0.1}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	want := Interval{Lo: -0.18875, Hi: 0.08875, Level: 0.95, Resamples: 4}
	if !closeInterval(got, want, 1e-12) {
		t.Errorf("ExactBootstrapCI = %+v; want %+v", got, want)
	}
}

// TestBootstrapMatchesExact checks the Monte Carlo bootstrap against the exact
// enumeration of all 7^7 = 823,543 resamples of seven distinct differences.
//
// The tolerance: the differences have mean −0.35/7 = −0.05, squared deviations
// 0.2025+0.0625+0.0225+0.0025+0.0225+0.04+0.2025 = 0.555, so a resample mean has sd
// σ_m = √(0.555/7/7) = 0.1064. A 2.5% quantile read from R = 10,000 resamples has
// standard error √(0.025·0.975/R) / f, with f ≈ φ(1.96)/σ_m = 0.0584/0.1064 = 0.549 the
// density there: 0.00156/0.549 = 0.0028. 0.015 is five of those.
func TestBootstrapMatchesExact(t *testing.T) {
	t.Parallel()
	d := []float64{-0.5, -0.3, -0.2, 0, 0.1, 0.15, 0.4}
	for _, level := range []float64{0.8, 0.95} {
		exact, err := ExactBootstrapCI(d, level)
		if err != nil {
			t.Fatal(err)
		}
		boot, err := PairedBootstrap(d, ResampleOptions{Level: level})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(boot.Lo-exact.Lo) > 0.015 || math.Abs(boot.Hi-exact.Hi) > 0.015 {
			t.Errorf("level %v: bootstrap [%v, %v]; exact [%v, %v]", level, boot.Lo, boot.Hi, exact.Lo, exact.Hi)
		}
		if exact.Resamples != 823543 {
			t.Errorf("exact enumerated %d resamples; want 7^7 = 823543", exact.Resamples)
		}
	}
}

// TestBootstrapMatchesNormal uses 200 symmetric differences, 100 of −0.1 and 100 of
// +0.1, where the normal approximation is good. Mean 0; squared deviations 200·0.01 = 2;
// s² = 2/199; s/√200 = √(2/199/200) = 0.1/√199 = 0.0070888; z·0.0070888 = 0.013894, so
// the normal interval is [−0.013894, 0.013894]. The bootstrap mean is 0.1·(2B/200 − 1)
// with B ~ Binomial(200, 1/2), on a grid of 0.001: its interval ends lie within one grid
// step and the Monte Carlo error, 0.002, of the normal ones.
func TestBootstrapMatchesNormal(t *testing.T) {
	t.Parallel()
	d := make([]float64, 200)
	for i := range d {
		d[i] = 0.1
		if i%2 == 0 {
			d[i] = -0.1
		}
	}
	normal, err := NormalCI(d, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1.959963984540054 * 0.1 / math.Sqrt(199); math.Abs(normal.Hi-want) > 1e-12 || math.Abs(normal.Lo+want) > 1e-12 {
		t.Errorf("normal interval %+v; want ±%v", normal, want)
	}
	boot, err := PairedBootstrap(d, ResampleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(boot.Lo-normal.Lo) > 0.002 || math.Abs(boot.Hi-normal.Hi) > 0.002 {
		t.Errorf("bootstrap [%v, %v]; normal [%v, %v]", boot.Lo, boot.Hi, normal.Lo, normal.Hi)
	}
}

func closeInterval(a, b Interval, tol float64) bool {
	return math.Abs(a.Lo-b.Lo) <= tol && math.Abs(a.Hi-b.Hi) <= tol && a.Level == b.Level && a.Resamples == b.Resamples
}
