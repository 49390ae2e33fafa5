package diagnose

import (
	"fmt"

	"github.com/evalgate/evalgate/internal/rubric"
)

// scorerHints say what a dimension that is 0 everywhere usually means.
var scorerHints = map[string]string{
	"json_schema": "the JSON formatter is broken",
	"contains":    "the expected text is never found: check the output field and the reference data",
	"exact":       "no output equals the expected text: check the output field and the normalization",
	"word_budget": "every answer overruns the word budget: the prompt or the budget changed",
	"regex":       "the pattern never matches: check the pattern and the output format",
	"llm_judge":   "the judge gives no credit anywhere: check the judge's template and replies",
	"latency":     "every answer is over the latency target",
	"tokens":      "every answer is over the token target",
	"safety":      "every answer trips the safety patterns",
}

// failedItems lists, for dimension d, the scored items whose value is a failure in
// every run (a mean normalized value of 0), and how many scored items d applies to.
func failedItems(in Input, d int, among []int) (failed []int, scored int) {
	f := in.facts
	for _, i := range among {
		if !f.scored[i] || f.na[i*f.nd+d] {
			continue // n/a: the dimension does not apply to the item, it did not fail it
		}
		scored++
		if f.zero[i*f.nd+d] {
			failed = append(failed, i)
		}
	}
	return failed, scored
}

func allItems(in Input) []int {
	idx := make([]int, in.Scored.NumItems())
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// itemFacts is what the item rules read of every item's score over the runs, taken
// in one pass over the compact scores (a streamed suite keeps no per-item scores).
type itemFacts struct {
	nd     int
	scored []bool // not missing in every run, not pending
	zero   []bool // [item*nd+d]: mean normalized value 0
	na     []bool // [item*nd+d]: n/a in every run
}

func newItemFacts(sc *rubric.Scored) *itemFacts {
	nd := len(sc.System.Dimensions)
	f := &itemFacts{nd: nd, scored: make([]bool, sc.NumItems()), zero: make([]bool, sc.NumItems()*nd), na: make([]bool, sc.NumItems()*nd)}
	_ = sc.EachItem(func(i int, is *rubric.ItemScore) error {
		f.scored[i] = scoredItem(is)
		for d, v := range is.Breakdown {
			f.zero[i*nd+d] = v == 0
			f.na[i*nd+d] = is.NA[d]
		}
		return nil
	})
	return f
}

// systematicMiss: a dimension scoring 0 on (nearly) every scored item.
func systematicMiss(c settings, in Input, covered []bool) []Finding {
	if !c.sysOn {
		return nil
	}
	var out []Finding
	all := allItems(in)
	for d, dim := range in.Scored.System.Dimensions {
		if covered[d] {
			continue // a shared cause already names it
		}
		failed, scored := failedItems(in, d, all)
		if scored < c.sysItems || scored == 0 || float64(len(failed)) < c.sysShare*float64(scored) {
			continue
		}
		hint := scorerHints[dim.Scorer]
		if hint == "" {
			hint = "the scorer's input may be broken"
		}
		what := itemsOf(len(failed), scored)
		if all := scoredCount(in); scored < all {
			what += fmt.Sprintf(" it applies to (n/a on the other %d)", all-scored)
		}
		out = append(out, Finding{Rule: RuleSystematicMiss, Dimension: dim.Name,
			Message: fmt.Sprintf("`%s` is 0 on %s: %s.", dim.Name, what, hint)})
	}
	return out
}

// scoredCount is how many items were scored (not missing in every run, not pending).
func scoredCount(in Input) int {
	n := 0
	for _, ok := range in.facts.scored {
		if ok {
			n++
		}
	}
	return n
}
