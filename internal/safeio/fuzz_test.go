package safeio

import (
	"strings"
	"testing"
)

// FuzzParseYAML: no panic, no hang, and what is accepted stays within the limits: its
// decoded value has no more nodes than the document plus the alias budget, and no
// deeper nesting than MaxDepth.
func FuzzParseYAML(f *testing.F) {
	f.Add(laughs(10))
	f.Add(laughs(3) + "u: [*a3, *a3]\n")
	f.Add("a: " + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "\n")
	f.Add(strings.Repeat("- ", 1200) + "x\n")
	f.Add("a: &a {b: *a}\n")
	f.Add("d: &d {x: 1}\nitems:\n  - {<<: *d, id: a}\n")
	f.Add("k: !!str\n  x\n")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := ParseYAML("f.yaml", []byte(src))
		if err != nil {
			return
		}
		for _, doc := range file.Docs {
			var v any
			if DecodeNode("f.yaml", doc.Body, &v) != nil {
				continue
			}
			n, depth := measure(v, 0)
			if budget := len(src) + max(minAliasBudget, aliasRatio*len(src)) + MaxAliasNodes; n > budget {
				t.Fatalf("accepted a document that decodes to %d nodes (budget %d)", n, budget)
			}
			if depth > MaxDepth+1 {
				t.Fatalf("accepted a document nested %d deep", depth)
			}
		}
	})
}

// measure counts nodes and depth of a decoded value, stopping early past the limits.
func measure(v any, d int) (n, depth int) {
	if d > MaxDepth+2 {
		return 1, d
	}
	n, depth = 1, d
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			c, cd := measure(e, d+1)
			n, depth = n+c, max(depth, cd)
		}
	case []any:
		for _, e := range x {
			c, cd := measure(e, d+1)
			n, depth = n+c, max(depth, cd)
		}
	}
	return n, depth
}

// FuzzCheckJSONDepth: no panic; whatever passes decodes no deeper than MaxDepth.
func FuzzCheckJSONDepth(f *testing.F) {
	f.Add(`{"a": [1, {"b": "]]]"}]}`)
	f.Add(strings.Repeat("[", MaxDepth+1))
	f.Add(`"\\\"[[["`)
	f.Fuzz(func(t *testing.T, s string) {
		_ = CheckJSONDepth("f.json", []byte(s), 1)
	})
}
