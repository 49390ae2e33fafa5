package stats

import "math"

// logSketch is a DDSketch (Masson, Rim and Lee, "DDSketch: a fast and fully-mergeable
// quantile sketch with relative-error guarantees", VLDB 2019) with the logarithmic
// mapping and unbounded dense stores, as DataDog's sketches-go builds it by default. A
// value v > 0 is counted in bucket ⌊ln v / ln γ⌋, γ = (1+α)/(1−α), and read back as
// γ^bucket · (1+α), within α·v of v; a value < 0 likewise on the negative side, by its
// magnitude; a magnitude too small to index counts as 0. Counts are integers, so the
// sketches of parts add up, bucket by bucket, to the sketch of the whole. (The library
// itself would bring google.golang.org/protobuf into the binary: 1.5 MB of image and
// 0.7 MB of resident memory at start, for code this small.)
type logSketch struct {
	pos, neg sketchBins
	zero     int
}

// sketchMultiplier is 1 / ln γ for α = SketchRelativeAccuracy.
var sketchMultiplier = 1 / math.Log((1+SketchRelativeAccuracy)/(1-SketchRelativeAccuracy))

// Magnitudes the mapping indexes: below the smallest, a value counts as 0; above the
// largest it is clamped (its bucket's value must stay finite).
var (
	sketchMinIndexable = 0x1p-1022 * (1 + SketchRelativeAccuracy) / (1 - SketchRelativeAccuracy)
	sketchMaxIndexable = math.MaxFloat64 / (1 + SketchRelativeAccuracy)
)

// sketchIndex is the bucket of a magnitude m ≥ sketchMinIndexable.
func sketchIndex(m float64) int { return int(math.Floor(math.Log(m) * sketchMultiplier)) }

// sketchValue is the value a bucket reads back as.
func sketchValue(i int) float64 {
	return math.Exp(float64(i)/sketchMultiplier) * (1 + SketchRelativeAccuracy)
}

// add counts x once.
func (s *logSketch) add(x float64) {
	m := min(math.Abs(x), sketchMaxIndexable)
	switch {
	case m < sketchMinIndexable:
		s.zero++
	case x > 0:
		s.pos.add(sketchIndex(m), 1)
	default:
		s.neg.add(sketchIndex(m), 1)
	}
}

// merge adds o's counts.
func (s *logSketch) merge(o *logSketch) {
	s.pos.merge(&o.pos)
	s.neg.merge(&o.neg)
	s.zero += o.zero
}

// valueAtRank is the sketch's value of the value of (integer) rank k, 0-based in
// ascending order.
func (s *logSketch) valueAtRank(k int) float64 {
	switch {
	case k < s.neg.total:
		return -sketchValue(s.neg.keyAtRank(s.neg.total - 1 - k))
	case k < s.neg.total+s.zero:
		return 0
	}
	return sketchValue(s.pos.keyAtRank(k - s.neg.total - s.zero))
}

// sketchBins count values by bucket: counts[i] in bucket offset+i.
type sketchBins struct {
	offset int
	counts []int
	total  int
}

// add counts c values in bucket i, growing the range with room to spare.
func (b *sketchBins) add(i, c int) {
	if c == 0 {
		return
	}
	switch {
	case len(b.counts) == 0:
		b.offset, b.counts = i, make([]int, 1, 64)
	case i < b.offset:
		grow := max(b.offset-i, len(b.counts))
		counts := make([]int, grow+len(b.counts))
		copy(counts[grow:], b.counts)
		b.offset, b.counts = b.offset-grow, counts
	case i >= b.offset+len(b.counts):
		b.counts = append(b.counts, make([]int, i-b.offset+1-len(b.counts))...)
	}
	b.counts[i-b.offset] += c
	b.total += c
}

func (b *sketchBins) merge(o *sketchBins) {
	for i, c := range o.counts {
		b.add(o.offset+i, c)
	}
}

// keyAtRank is the bucket of the value of rank k (0-based, ascending): the first whose
// cumulative count exceeds k.
func (b *sketchBins) keyAtRank(k int) int {
	n := 0
	for i, c := range b.counts {
		if n += c; n > k {
			return b.offset + i
		}
	}
	return b.offset + len(b.counts) - 1
}

// trimmed is the range of buckets holding values: nil when empty.
func (b *sketchBins) trimmed() *SketchBins {
	lo, hi := 0, len(b.counts)-1
	for lo <= hi && b.counts[lo] == 0 {
		lo++
	}
	for hi >= lo && b.counts[hi] == 0 {
		hi--
	}
	if lo > hi {
		return nil
	}
	return &SketchBins{Offset: b.offset + lo, Counts: append([]int(nil), b.counts[lo:hi+1]...)}
}
