package diagnose

import "fmt"

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
// every run (a mean normalized value of 0), and how many items were scored.
func failedItems(in Input, d int, among []int) (failed []int, scored int) {
	for _, i := range among {
		is := &in.Scored.Items[i]
		if !scoredItem(is) {
			continue
		}
		scored++
		if is.Breakdown[d] == 0 {
			failed = append(failed, i)
		}
	}
	return failed, scored
}

func allItems(in Input) []int {
	idx := make([]int, len(in.Scored.Items))
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// systematicMiss: a dimension scoring 0 on (nearly) every scored item.
func systematicMiss(c settings, in Input) []Finding {
	if !c.sysOn {
		return nil
	}
	var out []Finding
	all := allItems(in)
	for d, dim := range in.Scored.System.Dimensions {
		failed, scored := failedItems(in, d, all)
		if scored < c.sysItems || scored == 0 || float64(len(failed)) < c.sysShare*float64(scored) {
			continue
		}
		hint := scorerHints[dim.Scorer]
		if hint == "" {
			hint = "the scorer's input may be broken"
		}
		who := "every"
		if len(failed) < scored {
			who = fmt.Sprintf("%d of %d", len(failed), scored)
		} else {
			who = fmt.Sprintf("every (%d of %d)", len(failed), scored)
		}
		out = append(out, Finding{Rule: RuleSystematicMiss, Dimension: dim.Name,
			Message: fmt.Sprintf("`%s` is 0 on %s scored item(s): %s.", dim.Name, who, hint)})
	}
	return out
}
