package gate

import "math"

// dropResolution is the grid both sides of a drop comparison are rounded to: finer than
// any score a rubric can express, coarser than float64 noise.
const dropResolution = 1e-9

// DropExceeds reports whether drop is strictly greater than maxDrop after both are
// rounded to 1e-9, the rule DESIGN.md fixes for "the drop". Rounding first means float
// noise cannot decide a verdict: a suite whose item scores average 0.95 before and 0.93
// after can give a drop of 0.020000000000000018 in float64, which is exactly max_drop
// 0.02 once rounded, so it does not exceed it.
//
// drop is positive when the candidate is worse (drop = −delta), in whatever unit maxDrop
// uses (absolute points, or a fraction of the baseline in relative mode).
func DropExceeds(drop, maxDrop float64) bool {
	return math.Round(drop/dropResolution) > math.Round(maxDrop/dropResolution)
}
