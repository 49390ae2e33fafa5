package diagnose

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// normalizationMiss: a contains or exact dimension that scores 0 on an output matching
// the expected text after case folding, trimming and punctuation stripping (seed 000's
// /break case: without case folding, "Ate." scores 0 against "ate").
func normalizationMiss(c settings, in Input) []Finding {
	if !c.normOn {
		return nil
	}
	sc := in.Scored
	obs := in.Outputs
	var out []Finding
	for d, dim := range sc.System.Dimensions {
		m := obs.norm[d]
		if m == nil || m.count == 0 {
			continue
		}
		out = append(out, Finding{Rule: RuleNormalizationMiss, Dimension: dim.Name, Items: refs(in, m.first),
			Message: fmt.Sprintf("%s scores 0 on %d item(s) whose output matches the expected text after case folding, trimming and punctuation stripping (%s): check the dimension's normalization.",
				code(dim.Name), m.count, m.example)})
	}
	return out
}

// Outputs gathers, while a suite is scored, what the rules need of the outputs, which a
// streamed check does not keep: per contains or exact dimension, the items scoring 0
// on an output that matches loosely (a count, the first few in suite order, and the
// first one's example).
type Outputs struct {
	sys    *rubric.System
	norm   []*normMisses     // per dimension; nil: not a contains or exact dimension
	causes map[string]*cause // shared causes of failure (sharedcause.go), by kind
}

type normMisses struct {
	count   int
	first   []int // the first MaxNamedItems items, in suite order
	example string
}

// NewOutputs starts gathering for a scoring system's dimensions.
func NewOutputs(sys *rubric.System) *Outputs {
	o := &Outputs{sys: sys, norm: make([]*normMisses, len(sys.Dimensions)), causes: map[string]*cause{}}
	for d, dim := range sys.Dimensions {
		if dim.Scorer == "contains" || dim.Scorer == "exact" {
			o.norm[d] = &normMisses{}
		}
	}
	return o
}

// Observe reads item i's first scored sample (rubric.ScoreOptions.FirstSample). Calls
// come one at a time, in any item order.
func (o *Outputs) Observe(i int, it *eval.Item, sm *rubric.Sample) {
	if sm == nil || sm.Missing || sm.Result == nil {
		return
	}
	o.observeCauses(i, sm)
	for d, m := range o.norm {
		if m == nil || d >= len(sm.Values) || sm.Values[d].Norm != 0 || sm.Values[d].Raw == nil {
			continue
		}
		dim := &o.sys.Dimensions[d]
		text, ok := outputText(sm.Result, dim.OutputField)
		if !ok {
			continue
		}
		want := expected(it, sm.Result, dim)
		if len(want) == 0 || !looseMatch(text, want, dim.Scorer == "contains") {
			continue
		}
		m.count++
		k, _ := slices.BinarySearch(m.first, i)
		if k >= MaxNamedItems {
			continue
		}
		if k == 0 {
			m.example = fmt.Sprintf("%s: %q against %q", code(it.ID), clip(text, 40), clip(want[0], 40))
		}
		m.first = slices.Insert(m.first, k, i)
		if len(m.first) > MaxNamedItems {
			m.first = m.first[:MaxNamedItems]
		}
	}
}

// firstScoredSample is an item's sample in the first run that has a result.
func firstScoredSample(sc *rubric.Scored, i int) *rubric.Sample {
	for r := range sc.Runs {
		if i >= len(sc.Runs[r].Samples) {
			continue
		}
		if sm := &sc.Runs[r].Samples[i]; !sm.Missing && sm.Result != nil {
			return sm
		}
	}
	return nil
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// outputText is the text a dimension scored: the output, or one field of a JSON output.
func outputText(res *eval.Result, field string) (string, bool) {
	if res == nil {
		return "", false
	}
	if field == "" {
		return res.Output, true
	}
	var obj map[string]any
	if json.Unmarshal([]byte(res.Output), &obj) != nil {
		return "", false
	}
	v, ok := eval.Lookup(obj, field)
	s, isStr := v.(string)
	return s, ok && isStr
}

// expected is the dimension's reference text(s) for an item.
func expected(it *eval.Item, res *eval.Result, d *rubric.Dimension) []string {
	paths := []string{"expected_contains", "expected"}
	if d.Scorer == "exact" {
		paths = []string{"expected"}
	}
	if d.Expected != "" {
		paths = []string{d.Expected}
	}
	for _, p := range paths {
		v, ok := it.Field(p)
		if !ok && res != nil {
			v, ok = eval.Lookup(res.Fields, p)
		}
		if !ok {
			continue
		}
		switch x := v.(type) {
		case string:
			return []string{x}
		case []any:
			var out []string
			for _, e := range x {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
			return out
		}
	}
	return nil
}

// fold is the loosest reading of a text: lowercased, punctuation removed, spaces
// collapsed and trimmed.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsPunct(r) || unicode.IsSymbol(r):
		case unicode.IsSpace(r):
			b.WriteRune(' ')
		default:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func looseMatch(text string, want []string, substring bool) bool {
	t := fold(text)
	if substring {
		for _, w := range want {
			fw := fold(w)
			if fw == "" || !strings.Contains(t, fw) {
				return false
			}
		}
		return true
	}
	for _, w := range want {
		if t == fold(w) && t != "" {
			return true
		}
	}
	return false
}
