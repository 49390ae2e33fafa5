package diagnose

import (
	"fmt"
	"sort"
)

// tagFailure: a tag whose items all fail one dimension (a row of zeros for one verb).
// A dimension already failing suite-wide (systematicMiss, or a shared cause) is not
// repeated per tag.
func tagFailure(c settings, in Input, systematic []Finding, covered []bool) []Finding {
	if !c.tagOn {
		return nil
	}
	skip := map[string]bool{}
	for d, on := range covered {
		if on {
			skip[in.Scored.System.Dimensions[d].Name] = true
		}
	}
	for _, f := range systematic {
		skip[f.Dimension] = true
	}
	byTag := map[string][]int{}
	for i := range in.Scored.Suite.Len() {
		for _, t := range in.Scored.Suite.Tags(i) {
			byTag[t] = append(byTag[t], i)
		}
	}
	tags := make([]string, 0, len(byTag))
	for t := range byTag {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	var out []Finding
	for _, t := range tags {
		for d, dim := range in.Scored.System.Dimensions {
			if skip[dim.Name] {
				continue
			}
			failed, scored := failedItems(in, d, byTag[t])
			if scored < c.tagItems || len(failed) < scored {
				continue
			}
			out = append(out, Finding{Rule: RuleTagFailure, Dimension: dim.Name, Tag: t, Items: refs(in, failed),
				Message: fmt.Sprintf("all %d %s items fail %s: check the data and the prompt for that tag.", scored, code(t), code(dim.Name))})
		}
	}
	return out
}
