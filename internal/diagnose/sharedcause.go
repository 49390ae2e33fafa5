package diagnose

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// RuleSharedCause names the finding of one cause that takes down several dimensions
// at once; it runs under the systematic_miss settings, which it refines.
const RuleSharedCause = "shared_cause"

// cause is one reason an output fails before any scorer judges it: the system under
// test errored or timed out, the output is empty, it is not a JSON object, or it lacks
// a field a dimension reads. Items and dims count where it struck.
type cause struct {
	what  string // "the output is not a JSON object"
	items int
	dims  []bool   // the dimensions it left at 0
	first []int    // the first MaxNamedItems items, in suite order
	hit   []uint64 // a bit per item it struck (the item's first sample)
}

// observeCauses records item i's causes: each counts the item once, and every
// dimension it left at 0.
func (o *Outputs) observeCauses(i int, sm *rubric.Sample) {
	res := sm.Result
	hit := map[string]bool{}
	mark := func(key, what string, d int) {
		c := o.causes[key]
		if c == nil {
			c = &cause{what: what, dims: make([]bool, len(o.sys.Dimensions))}
			o.causes[key] = c
		}
		c.dims[d] = true
		if !hit[key] {
			hit[key] = true
			for len(c.hit) <= i/64 {
				c.hit = append(c.hit, 0)
			}
			c.hit[i/64] |= 1 << (i % 64)
			c.items++
			k, _ := slices.BinarySearch(c.first, i)
			if k < MaxNamedItems {
				c.first = slices.Insert(c.first, k, i)
				c.first = c.first[:min(len(c.first), MaxNamedItems)]
			}
		}
	}
	var obj map[string]any
	parsed, objOK := false, false
	for d := range o.sys.Dimensions {
		if d >= len(sm.Values) || sm.Values[d].Norm != 0 || sm.Values[d].Excluded {
			continue
		}
		dim := &o.sys.Dimensions[d]
		switch {
		case strings.TrimSpace(res.Output) == "" && (res.Error != "" || res.TimedOut):
			mark("error", "the system under test failed (an error or a timeout) instead of answering", d)
		case strings.TrimSpace(res.Output) == "":
			mark("empty", "the output is empty", d)
		case dim.OutputField != "" || dim.Scorer == "json_schema":
			if !parsed {
				parsed = true
				objOK = json.Unmarshal([]byte(res.Output), &obj) == nil && obj != nil
			}
			if !objOK {
				mark("json", "the output is not a JSON object", d)
			} else if dim.OutputField != "" {
				if _, ok := eval.Lookup(obj, dim.OutputField); !ok {
					mark("field:"+dim.OutputField, "the output has no field "+code(dim.OutputField), d)
				}
			}
		}
	}
}

// sharedCause: one cause behind the failures of (nearly) every scored item, reported
// once with the dimensions it takes down; it returns the dimensions it covers, which
// systematicMiss then leaves alone.
func sharedCause(c settings, in Input) ([]Finding, []bool) {
	covered := make([]bool, len(in.Scored.System.Dimensions))
	if !c.sysOn {
		return nil, covered
	}
	scored := 0
	for _, ok := range in.facts.scored {
		if ok {
			scored++
		}
	}
	var out []Finding
	for _, key := range slices.Sorted(maps.Keys(in.Outputs.causes)) {
		cs := everyRun(in, in.Outputs.causes[key])
		if scored < c.sysItems || cs.items < c.sysItems || float64(cs.items) < c.sysShare*float64(scored) {
			continue
		}
		var names []string
		for d, on := range cs.dims {
			if on {
				names = append(names, code(in.Scored.System.Dimensions[d].Name))
				covered[d] = true
			}
		}
		out = append(out, Finding{Rule: RuleSharedCause, Items: refs(in, cs.first),
			Message: fmt.Sprintf("%s on %s: one cause that takes down %s, every value read from the output.",
				cs.what, itemsOf(cs.items, scored), andList(names))})
	}
	return out, covered
}

// everyRun is the cause as it struck the scored items that failed a dimension it takes
// down in every run: it is seen in an item's first sample, and with several runs an
// item whose later runs scored is no failure of that cause, as systematicMiss counts
// failures (a mean of 0). With one run it is every scored item the cause struck.
func everyRun(in Input, cs *cause) *cause {
	f := in.facts
	out := &cause{what: cs.what, dims: cs.dims}
	for w, word := range cs.hit {
		for ; word != 0; word &= word - 1 {
			i := w*64 + bits.TrailingZeros64(word)
			if i >= len(f.scored) || !f.scored[i] {
				continue
			}
			for d, on := range cs.dims {
				if on && f.zero[i*f.nd+d] && !f.na[i*f.nd+d] {
					out.items++
					if len(out.first) < MaxNamedItems {
						out.first = append(out.first, i)
					}
					break
				}
			}
		}
	}
	return out
}

// itemsOf is "all 20 scored items", "18 of 20 scored items" or "the 1 scored item".
func itemsOf(n, of int) string {
	switch {
	case n == of && n == 1:
		return "the one scored item"
	case n == of:
		return fmt.Sprintf("all %d scored items", n)
	}
	return fmt.Sprintf("%d of %d scored items", n, of)
}

// andList is "a", "a and b", "a, b and c".
func andList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
