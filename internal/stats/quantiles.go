package stats

import (
	"math"
	"slices"
)

// ExactQuantilesUpTo is how many values a Quantiles keeps before it switches to a
// sketch: up to it, every value is kept (8 bytes each) and percentiles are exact,
// the type-7 figure (quantileSorted) to the last bit; past it, the values go into a DDSketch
// and percentiles are estimates within SketchRelativeAccuracy. A variable only so that
// tests can reach the sketch with small data.
var ExactQuantilesUpTo = 1_000_000

// SketchRelativeAccuracy is the DDSketch's relative accuracy α. The sketch gives each
// value of a rank within α of the true one; an estimated percentile interpolates, as
// quantileSorted does, between the sketch's values of ranks ⌊h⌋ and ⌊h⌋+1 (h = (n−1)·q), so
// for values ≥ 0 (latencies) it is within α·x of x, the exact type-7 percentile. (For
// values of both signs: within α times the larger magnitude of the two ranks' values.)
const SketchRelativeAccuracy = 0.01

// SketchMethod names the sketch in reports.
const SketchMethod = "DDSketch"

// Quantiles accumulates values for percentiles: exactly while there are at most
// ExactQuantilesUpTo of them, then in a DDSketch (logsketch.go: log mapping, unbounded
// dense stores) whose memory grows with the log of the values' range, not with their
// number. Sketch bucket counts add exactly, so the estimate does
// not depend on the order the values came in. The zero value is empty and ready.
type Quantiles struct {
	values []float64
	sorted bool
	sketch *logSketch
	n      int
}

// Add records x (finite; NaN is ignored).
func (q *Quantiles) Add(x float64) {
	if math.IsNaN(x) {
		return
	}
	q.n++
	if q.sketch == nil {
		q.values = append(q.values, x)
		q.sorted = false
		if len(q.values) > ExactQuantilesUpTo {
			q.fold()
		}
		return
	}
	q.sketch.add(x)
}

// fold moves the values kept so far into a new sketch.
func (q *Quantiles) fold() {
	q.sketch = &logSketch{}
	for _, x := range q.values {
		q.sketch.add(x)
	}
	q.values = nil
}

// Len is the number of values added.
func (q *Quantiles) Len() int { return q.n }

// Sketched reports whether the percentiles are estimates (more than
// ExactQuantilesUpTo values).
func (q *Quantiles) Sketched() bool { return q.sketch != nil }

// Percentile returns the p-th percentile (p in [0, 100]): exactly the type-7 figure (quantileSorted)
// while the values are kept, the sketch's estimate after. False, with 0, when there
// are no values or p is outside [0, 100].
func (q *Quantiles) Percentile(p float64) (float64, bool) {
	if q.n == 0 || !(p >= 0 && p <= 100) {
		return 0, false
	}
	if q.sketch == nil {
		if !q.sorted {
			slices.Sort(q.values)
			q.sorted = true
		}
		return quantileSorted(q.values, p/100), true
	}
	// The type-7 rule over the sketch's values of the two ranks around h.
	h := float64(q.n-1) * p / 100
	lo := math.Floor(h)
	v := q.sketch.valueAtRank(int(lo))
	if int(lo) >= q.n-1 {
		return v, true
	}
	return v + (h-lo)*(q.sketch.valueAtRank(int(lo)+1)-v), true
}

// Merge adds o's values to q, as if each had been added to q: kept values stay kept
// while they number at most ExactQuantilesUpTo; sketches add bucket by bucket.
func (q *Quantiles) Merge(o *Quantiles) {
	if o.sketch == nil {
		for _, x := range o.values {
			q.Add(x)
		}
		return
	}
	if q.sketch == nil {
		q.fold()
	}
	q.sketch.merge(o.sketch)
	q.n += o.n
}
