package stats

import (
	"fmt"
	"math"
)

// MaxResampleItems bounds the resampling measures: above it (10,000 resamples of that
// many items) MeasureDrop uses the normal approximation, which at that size agrees with
// the bootstrap to well under 0.01 pts and keeps a measurement O(n).
const MaxResampleItems = 20000

// DropMeasure is the plain comparison of two paired score lists: means, their
// difference, its interval and the sign-flip p-values. It measures; gate decides.
type DropMeasure struct {
	// BaseMean and CandMean are the means of the paired scores.
	BaseMean float64 `json:"baseline_mean"`
	CandMean float64 `json:"candidate_mean"`
	// Delta is CandMean − BaseMean in absolute points of the 0–1 score; RelDelta is
	// Delta / BaseMean (0 when BaseMean is 0).
	Delta    float64 `json:"delta"`
	RelDelta float64 `json:"relative_delta"`
	// CI is the 95 % interval of the mean paired difference (cand − base): a paired
	// bootstrap up to MaxResampleItems items, the normal approximation above.
	CI Interval `json:"ci"`
	// PValue and PValueWorse are the two-sided and one-sided ("candidate worse")
	// p-values of the mean difference: sign-flip permutation test up to
	// MaxResampleItems items, normal approximation above.
	PValue      float64 `json:"p_value"`
	PValueWorse float64 `json:"p_value_worse"`
}

// MeasureDrop measures base against cand, paired by index.
func MeasureDrop(base, cand []float64, opts ResampleOptions) (DropMeasure, error) {
	if len(base) == 0 {
		return DropMeasure{}, errEmpty
	}
	if len(base) != len(cand) {
		return DropMeasure{}, fmt.Errorf("%d candidate scores for %d baseline scores; want them paired item by item", len(cand), len(base))
	}
	opts, err := opts.withDefaults()
	if err != nil {
		return DropMeasure{}, err
	}
	diffs := make([]float64, len(base))
	for i := range diffs {
		diffs[i] = cand[i] - base[i]
	}
	m := DropMeasure{BaseMean: Mean(base), CandMean: Mean(cand)}
	m.Delta = m.CandMean - m.BaseMean
	if m.BaseMean != 0 {
		m.RelDelta = m.Delta / m.BaseMean
	}
	if len(diffs) <= MaxResampleItems && !opts.Analytic {
		var b bootstrapper
		m.CI = b.interval(diffs, opts)
		flip, err := SignFlipTest(diffs, opts)
		if err != nil {
			return DropMeasure{}, err
		}
		m.PValue, m.PValueWorse = flip.TwoSided, flip.Less
		return m, nil
	}
	mean, sd := Mean(diffs), SampleStd(diffs)
	half := zQuantile(opts.Level) * sd / math.Sqrt(float64(len(diffs)))
	m.CI = Interval{Lo: mean - half, Hi: mean + half, Level: opts.Level}
	z := 0.0
	if sd > 0 {
		z = mean / (sd / math.Sqrt(float64(len(diffs))))
	}
	m.PValueWorse = normalCDF(z)
	m.PValue = math.Min(1, 2*normalCDF(-math.Abs(z)))
	return m, nil
}
