package rubric

import (
	"math"

	"github.com/evalgate/evalgate/internal/eval"
)

// Sample is one item scored in one run.
type Sample struct {
	Missing  bool      // the run has no result for the item: score 0, failing
	Values   []Value   // one per dimension, in dimension order
	Weighted []float64 // effective weight × normalized value, per dimension
	Score    float64   // weighted sum, after ceilings and vetoes
	Uncapped float64   // weighted sum before ceilings and vetoes
	CappedBy string    // the ceiling or veto dimension that capped the score
	Pass     bool
	Why      string // why the sample fails, when it does
	Pending  bool   // every dimension is n/a or stale: no score
	Result   *eval.Result
}

// Round9 rounds to 1e-9, so sums of weights do not show float noise (0.75, not
// 0.7500000000000001) and thresholds compare as a person reads them.
func Round9(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// weigh computes the weighted sum, renormalizing weights over dimensions that are not
// excluded (seed 004: n/a and stale leave the mean).
func (s *System) weigh(sm *Sample) {
	total := 0.0
	for i, v := range sm.Values {
		if !v.Excluded {
			total += s.Dimensions[i].Weight
		}
	}
	if len(sm.Weighted) == len(sm.Values) {
		clear(sm.Weighted)
	} else {
		sm.Weighted = make([]float64, len(sm.Values))
	}
	if total == 0 {
		sm.Pending = true
		return
	}
	sum := 0.0
	for i, v := range sm.Values {
		if v.Excluded {
			continue
		}
		w := s.Dimensions[i].Weight / total
		sm.Weighted[i] = Round9(w * v.Norm)
		sum += w * v.Norm
	}
	sm.Uncapped = Round9(sum)
	sm.Score = sm.Uncapped
}

// capScore applies ceilings (raw value below a threshold) and vetoes (a failed
// dimension), keeping the breakdown and recording which rule capped the score.
func (s *System) capScore(sm *Sample) {
	apply := func(limit float64, by string) {
		if sm.Score > limit {
			sm.Score = limit
			sm.CappedBy = by
		}
	}
	for ci, c := range s.Ceilings {
		v := sm.Values[s.ceilingDim[ci]]
		if v.Excluded {
			continue
		}
		if v.Raw == nil || *v.Raw < c.Below {
			apply(c.Cap, c.Dimension)
		}
	}
	for vi, vt := range s.Vetoes {
		i := s.vetoDim[vi]
		if s.Failed(i, sm.Values[i]) {
			apply(vt.Cap, vt.Dimension)
		}
	}
}

// Failed reports whether a dimension's value counts as a failure: null (judge error),
// a pass_fail "fail", a raw value below fail_below, or by default a normalized 0.
func (s *System) Failed(dim int, v Value) bool {
	if v.Excluded {
		return false
	}
	if v.Raw == nil {
		return true
	}
	if fb := s.Dimensions[dim].FailBelow; fb != nil {
		return *v.Raw < *fb
	}
	return v.Norm == 0
}
