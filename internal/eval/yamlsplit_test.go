package eval

import (
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/evalgate/evalgate/internal/safeio"
)

// parseBoth parses a YAML suite item by item (when the layout allows) and whole, so the
// two can be compared.
func parseBoth(t *testing.T, data []byte) (split, whole *Suite, splitErr, wholeErr error, used bool) {
	t.Helper()
	split = newSuite("s.yaml")
	split.Name = split.defaultName()
	whole = newSuite("s.yaml")
	whole.Name = whole.defaultName()
	skeleton, items, ok := splitItems(data)
	if ok {
		splitErr = split.parseYAMLItems(skeleton, items)
	}
	wholeErr = whole.parseYAMLWhole(data)
	return split, whole, splitErr, wholeErr, ok
}

// TestSplitItemsAgreesWithWholeParse: item by item gives the same items, lines and
// name as the whole-file parse, for the layouts it takes.
func TestSplitItemsAgreesWithWholeParse(t *testing.T) {
	agreed := 0
	for _, src := range splitSeeds {
		split, whole, serr, werr, used := parseBoth(t, []byte(src))
		if !used {
			continue
		}
		if serr == nil && werr == nil {
			agreed++
		}
		if werr != nil {
			if serr == nil {
				t.Errorf("whole parse refuses (%v), item by item accepts:\n%s", werr, src)
			}
			continue
		}
		if serr != nil {
			continue // falls back to the whole parse: same result by construction
		}
		if diff := cmp.Diff(whole, split, cmp.AllowUnexported(Suite{}), cmpopts.IgnoreFields(Index{}, "idx")); diff != "" {
			t.Errorf("item by item differs (-whole +split):\n%s\n%s", diff, src)
		}
	}
	if agreed < 4 { // the first four seeds are valid suites in the usual layouts
		t.Errorf("only %d seeds went item by item", agreed)
	}
}

var splitSeeds = []string{
	"name: s\nitems:\n  - id: a\n    expected: x\n  - id: b\n    prompt: |\n      two\n      lines\n# c\n  - id: c\n    tags: [t]\n",
	"- id: a\n  expected: x\n-   id: b\n    expected: y\n",
	"items:\n- id: a\n- id: b\n  expected: \"multi\n    line\"\ndescription: after\n",
	"name: s # comment\nitems: # the list\n\n  - id: a\n\n  -\n    id: b\n",
	"items:\n  - id: a\n    d: &d {x: 1}\n    e: *d\n  - id: b\n",
	"items:\n  - id: a\n  - id: a\n",
	"items:\n  - id: a\nbogus: 1\n",
	"name: [x\nitems:\n  - id: a\n",
	"items:\n  - id: a\n   bad: indent\n",
	"items:\n  - {id: a}\n  - [1]\n",
	"- id: a\n  n: 12\n  big: 18446744073709551615\n  neg: -9007199254740993\n  f: 1.5e3\n  hex: 0x1F\n  z: -0.0\n  b: true\n  nul: ~\n  lit: |\n    x\n    y\n  fold: >\n    a\n    b\n  q: 'it''s'\n  dq: \"\\u00e9\\t\"\n  nested: {a: [1, {b: null}]}\n  \"1\": one\n",
	"- id: a\n  t: !!str 12\n  m: {<<: {x: 1}, y: 2}\n  nan: .nan\n  k: {1: x}\n",
	"- id: a\n  e: 1e999\n  d: 2001-12-14\n",
	"items:#x\n  - id: a\n", // "items:#x" is one plain scalar, no key; '#' starts a comment only after a space
	"name: s\nitems:#x\n  - id: a\n",
}

// FuzzSplitItems: for any input the item-by-item parse either fails (and the whole
// parse decides) or agrees with the whole parse.
func FuzzSplitItems(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Count(src, "\n") > 200 {
			return
		}
		split, whole, serr, werr, used := parseBoth(t, []byte(src))
		if !used || serr != nil {
			return
		}
		if werr != nil {
			t.Fatalf("whole parse refuses (%v), item by item accepts:\n%q", werr, src)
		}
		if diff := cmp.Diff(whole, split, cmp.AllowUnexported(Suite{}), cmpopts.IgnoreFields(Index{}, "idx")); diff != "" {
			t.Fatalf("item by item differs (-whole +split):\n%s\n%q", diff, src)
		}
	})
}

// slowFields is what an item decodes to without plainFields.
func slowFields(t *testing.T, m *ast.MappingNode) (map[string]any, error) {
	var raw map[string]any
	if err := NodeToValue("s.yaml", m, &raw); err != nil {
		return nil, err
	}
	return toJSONFields(raw)
}

// checkPlainFields compares plainFields with NodeToValue + the JSON round trip for every
// item mapping of src; it returns how many items took the fast way.
func checkPlainFields(t *testing.T, src string) int {
	f, err := safeio.ParseYAML("s.yaml", []byte(src))
	if err != nil || len(f.Docs) == 0 {
		return 0
	}
	seq, ok := f.Docs[0].Body.(*ast.SequenceNode)
	if !ok {
		return 0
	}
	fast := 0
	for _, n := range seq.Values {
		m, ok := n.(*ast.MappingNode)
		if !ok {
			continue
		}
		got, ok := plainFields(m)
		if !ok {
			continue
		}
		fast++
		want, err := slowFields(t, m)
		if err != nil {
			t.Fatalf("plainFields accepts what the decoder refuses (%v):\n%q", err, src)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("plainFields differs (-decoder +plain):\n%s\n%q", diff, src)
		}
	}
	return fast
}

func TestPlainFieldsAgreesWithDecoder(t *testing.T) {
	fast := 0
	for _, src := range splitSeeds {
		fast += checkPlainFields(t, src)
	}
	if fast < 3 {
		t.Errorf("only %d items took the fast way", fast)
	}
}

func FuzzPlainFields(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkPlainFields(t, src) })
}

// TestItemsKey: the line that opens the list, exactly; '#' is a comment after a space.
func TestItemsKey(t *testing.T) {
	for l, want := range map[string]bool{
		"items:": true, "items:   ": true, "items: # the list": true, "items:  #": true,
		"items:#x": false, "items:# x": false, "items: x": false, "items: [] # x": false, " items:": false, "itemsx:": false,
	} {
		if got := itemsKey.MatchString(l); got != want {
			t.Errorf("itemsKey matches %q: %v; want %v", l, got, want)
		}
	}
}
