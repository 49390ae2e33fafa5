package diagnose

import (
	"fmt"
	"math"
)

// loneDrop: one dimension falling against the baseline while the others hold
// ("conciseness alone trending down"), beyond the dimension's interval when the
// comparison has one.
func loneDrop(c settings, in Input) []Finding {
	cmp := in.Comparison
	if !c.loneOn || cmp == nil || len(cmp.Dimensions) < 2 {
		return nil
	}
	fell := -1
	for i, d := range cmp.Dimensions {
		switch {
		case d.Delta <= -c.loneDrop+1e-9:
			if fell >= 0 {
				return nil // two fell: not alone
			}
			fell = i
		case math.Abs(d.Delta) > c.loneHold+1e-9:
			return nil // another moved too
		}
	}
	if fell < 0 {
		return nil
	}
	d := cmp.Dimensions[fell]
	if d.CI != nil && d.CI.Hi >= 0 {
		return nil // within the suite's noise: one item flipping on a small suite
	}
	return []Finding{{Rule: RuleLoneDrop, Dimension: d.Name,
		Message: fmt.Sprintf("`%s` alone fell %.1f pts (%.3f → %.3f) while the other dimensions held within %.1f pts: the prompt template or the %s scorer's input may have changed.",
			d.Name, -100*d.Delta, d.Base, d.Cand, 100*c.loneHold, d.Name)}}
}
