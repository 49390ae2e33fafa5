package stats

import (
	"fmt"
	"math"
)

// SketchState is a sketched Quantiles as a shard's partial report carries it: the
// DDSketch's bucket counts by bucket index of the log mapping, so that the sketches of
// parts add up, bucket by bucket, to the sketch of the whole.
type SketchState struct {
	// RelativeAccuracy is the sketch's α; merging needs the same.
	RelativeAccuracy float64 `json:"relative_accuracy"`
	// Count is the number of values; Zero of them are 0.
	Count int `json:"count"`
	Zero  int `json:"zero,omitempty"`
	// Positive and Negative are the buckets of the values > 0 and of the magnitudes of
	// the values < 0.
	Positive *SketchBins `json:"positive,omitempty"`
	Negative *SketchBins `json:"negative,omitempty"`
}

// SketchBins are consecutive buckets: Counts[i] values in bucket Offset+i.
type SketchBins struct {
	Offset int   `json:"offset"`
	Counts []int `json:"counts"`
}

// maxSketchSpan bounds the buckets a SketchState may span: the whole range of finite
// float64 magnitudes takes about 71,000 at α = 1 %, so anything wider is not ours.
const maxSketchSpan = 1 << 17

// State returns the sketch of a sketched Quantiles, nil while the values are kept.
func (q *Quantiles) State() *SketchState {
	if q.sketch == nil {
		return nil
	}
	return &SketchState{RelativeAccuracy: SketchRelativeAccuracy, Count: q.n, Zero: q.sketch.zero,
		Positive: q.sketch.pos.trimmed(), Negative: q.sketch.neg.trimmed()}
}

// MergeState adds the values st summarizes to q, as Merge does with the Quantiles it
// came from. A state of another accuracy, or inconsistent (negative or non-integer
// counts, counts that do not add up to Count, a span of buckets no float64 range
// gives), is an error and leaves q unchanged.
func (q *Quantiles) MergeState(st *SketchState) error {
	if st.RelativeAccuracy != SketchRelativeAccuracy {
		return fmt.Errorf("the latency sketch has relative accuracy %v; this evalgate sketches at %v", st.RelativeAccuracy, SketchRelativeAccuracy)
	}
	total := st.Zero
	for _, b := range []*SketchBins{st.Positive, st.Negative} {
		if b == nil {
			continue
		}
		if len(b.Counts) == 0 || len(b.Counts) > maxSketchSpan || b.Offset < -maxSketchSpan || b.Offset > maxSketchSpan {
			return fmt.Errorf("the latency sketch has %d buckets from index %d; want 1 to %d within ±%d", len(b.Counts), b.Offset, maxSketchSpan, maxSketchSpan)
		}
		for _, c := range b.Counts {
			if c < 0 || c > math.MaxInt32 || total > math.MaxInt32 {
				return fmt.Errorf("the latency sketch has a bucket count of %d (total so far %d)", c, total)
			}
			total += c
		}
	}
	if st.Zero < 0 || st.Count < 1 || total != st.Count {
		return fmt.Errorf("the latency sketch counts %d values in its buckets and zero count %d, but says %d", total, st.Zero, st.Count)
	}
	if q.sketch == nil {
		q.fold()
	}
	for _, p := range []struct {
		b  *SketchBins
		to *sketchBins
	}{{st.Positive, &q.sketch.pos}, {st.Negative, &q.sketch.neg}} {
		if p.b == nil {
			continue
		}
		for i, c := range p.b.Counts {
			p.to.add(p.b.Offset+i, c)
		}
	}
	q.sketch.zero += st.Zero
	q.n += st.Count
	return nil
}
