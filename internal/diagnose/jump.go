package diagnose

import (
	"fmt"
	"sort"
	"strings"
)

// jump: the score rising beyond the suite's noise. Seed 000: "0.95 → 0.98 is a real
// improvement, but verify it's not a rubric bug". It names the dimensions and items
// that moved.
func jump(c settings, in Input) []Finding {
	cmp := in.Comparison
	if !c.jumpOn || cmp == nil || cmp.Delta < c.jumpMin-1e-9 {
		return nil
	}
	if !in.Noise.BeyondNoise(cmp) {
		return nil
	}
	dims := append(cmp.Dimensions[:0:0], cmp.Dimensions...)
	sort.SliceStable(dims, func(i, j int) bool { return dims[i].Delta > dims[j].Delta })
	var moved []string
	for _, d := range dims {
		if d.Delta > 0.005 {
			moved = append(moved, fmt.Sprintf("%s %s", code(d.Name), pts(d.Delta)))
		}
	}
	var items []ItemRef
	var ids []string
	for _, ch := range cmp.NewlyPassing {
		if len(items) == MaxNamedItems {
			break
		}
		items = append(items, ItemRef{ID: ch.ID, Line: ch.Line})
		ids = append(ids, code(ch.ID))
	}
	// The interval that says "beyond the noise" is in the statistics, the one place
	// that states intervals and p-values (the comment keeps them in one <details>).
	msg := fmt.Sprintf("the score rose %s (%.3f → %.3f), beyond the suite's noise (see the statistics): a real improvement, but verify it is not a rubric bug.",
		pts(cmp.Delta), cmp.Base, cmp.Cand)
	if len(moved) > 0 {
		msg += " Moved: " + strings.Join(moved, ", ") + "."
	}
	if len(ids) > 0 {
		more := ""
		if n := cmp.NumNewlyPassing() - len(ids); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		msg += " Newly passing: " + strings.Join(ids, ", ") + more + "."
	}
	return []Finding{{Rule: RuleJump, Items: items, Message: msg}}
}
