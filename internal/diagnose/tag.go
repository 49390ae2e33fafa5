package diagnose

import (
	"fmt"
	"sort"
)

// maxTagFindings caps the tags tagFailure names one by one.
const maxTagFindings = 5

// tagFailure: a tag whose items all fail one dimension (a row of zeros for one verb):
// one finding per tag naming every dimension its items all fail, for the first
// maxTagFindings tags, then one finding that counts the rest, so a suite of many tags
// does not bury the report in findings. A dimension already failing suite-wide
// (systematicMiss, or a shared cause) is not repeated per tag.
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
	var more []string // the tags past maxTagFindings, counted in one last finding
	for _, t := range tags {
		var names, dims []string
		var items []int
		n := 0
		for d, dim := range in.Scored.System.Dimensions {
			if skip[dim.Name] {
				continue
			}
			failed, scored := failedItems(in, d, byTag[t])
			if scored < c.tagItems || len(failed) < scored {
				continue
			}
			if names == nil {
				items, n = failed, scored
			}
			names, dims = append(names, dim.Name), append(dims, code(dim.Name))
		}
		switch {
		case names == nil:
			continue
		case len(out) == maxTagFindings:
			more = append(more, t)
			continue
		}
		f := Finding{Rule: RuleTagFailure, Tag: t, Items: refs(in, items),
			Message: fmt.Sprintf("all %d %s items fail %s: check the data and the prompt for that tag.", n, code(t), andList(dims))}
		if len(names) == 1 {
			f.Dimension = names[0]
		}
		out = append(out, f)
	}
	if len(more) > 0 {
		named := make([]string, 0, MaxNamedItems+1)
		for _, t := range more[:min(len(more), MaxNamedItems)] {
			named = append(named, code(t))
		}
		if k := len(more) - len(named); k > 0 {
			named = append(named, fmt.Sprintf("%d more", k))
		}
		out = append(out, Finding{Rule: RuleTagFailure,
			Message: fmt.Sprintf("%d more tags whose items all fail a dimension: %s; the tag table has each.", len(more), andList(named))})
	}
	return out
}
