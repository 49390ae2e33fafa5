package gate

import (
	"math"

	"github.com/evalgate/evalgate/internal/rubric"
)

// estimated marks a metric gate decided on an estimate (a latency percentile from a
// sketch): the result carries the estimate, and its message says so, and says when the
// threshold lies within the estimate's error bound, where the exact figure could fall
// on the other side of it.
func estimated(r *Result, sc *rubric.Scored) {
	e, ok := sc.Estimates()[r.Metric]
	if !ok || r.Actual == nil {
		return
	}
	r.Estimated = &e
	r.Message += ", " + e.String()
	if lo, hi := estimateBounds(*r.Actual, e.RelativeError); r.Threshold >= lo && r.Threshold <= hi {
		r.Message += ": the threshold is within the error bound, so the exact figure may be on its other side"
	}
}

// estimateBounds is the range of the true value x given an estimate v with
// |v − x| ≤ α·|x|: [v/(1+α), v/(1−α)] for v ≥ 0, mirrored for v < 0.
func estimateBounds(v, alpha float64) (lo, hi float64) {
	if v < 0 {
		lo, hi = estimateBounds(-v, alpha)
		return -hi, -lo
	}
	return v / (1 + alpha), math.Min(v/(1-alpha), math.MaxFloat64)
}
