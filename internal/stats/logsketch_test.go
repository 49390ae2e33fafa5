package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/DataDog/sketches-go/ddsketch"
)

// TestLogSketchMatchesDDSketch: the sketch counts every value in the bucket DataDog's
// sketches-go (the reference DDSketch, used here in the test only) counts it in, and
// reads every rank back as the same value, on latencies, negatives, zeros and extremes.
func TestLogSketchMatchesDDSketch(t *testing.T) {
	ref, err := ddsketch.NewDefaultDDSketch(SketchRelativeAccuracy)
	if err != nil {
		t.Fatal(err)
	}
	var s logSketch
	rng := rand.New(rand.NewPCG(5, 6))
	values := []float64{0, 1, -1, 1e-300, 3e-308, 1e300, -1e300, 0.5, 200, 1000}
	for range 20000 {
		switch rng.IntN(4) {
		case 0:
			values = append(values, math.Exp(6+rng.NormFloat64()))
		case 1:
			values = append(values, float64(rng.IntN(5000)))
		case 2:
			values = append(values, -math.Exp(3*rng.NormFloat64()))
		default:
			values = append(values, rng.ExpFloat64()*1e-3)
		}
	}
	for _, x := range values {
		s.add(x)
		if err := ref.Add(x); err != nil {
			t.Fatal(err)
		}
	}
	for name, p := range map[string]struct {
		ours *sketchBins
		ref  interface {
			ForEach(func(int, float64) bool)
		}
	}{"positive": {&s.pos, ref.GetPositiveValueStore()}, "negative": {&s.neg, ref.GetNegativeValueStore()}} {
		want := map[int]int{}
		p.ref.ForEach(func(i int, c float64) bool { want[i] = int(c); return false })
		got := map[int]int{}
		for i, c := range p.ours.counts {
			if c > 0 {
				got[p.ours.offset+i] = c
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d buckets; sketches-go has %d", name, len(got), len(want))
		}
		for i, c := range want {
			if got[i] != c {
				t.Errorf("%s bucket %d: %d values; sketches-go counts %d", name, i, got[i], c)
			}
		}
	}
	if s.zero != int(ref.GetZeroCount()) || s.count() != len(values) {
		t.Errorf("zero count %d, total %d; sketches-go %v, %d values", s.zero, s.count(), ref.GetZeroCount(), len(values))
	}
	for _, k := range []int{0, 1, 100, len(values) / 2, len(values) - 2, len(values) - 1} {
		want, _ := ref.GetValueAtQuantile(float64(k) / float64(len(values)-1))
		if got := s.valueAtRank(k); math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("rank %d: %v; sketches-go %v", k, got, want)
		}
	}
}
