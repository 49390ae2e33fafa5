package importer_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

// A promptfoo test that names no `expected` var is shown with its one text assertion
// (equals, contains, icontains, starts-with, regex) as the expected text, cut like a
// note; none when it has several or its value is no text. The text is the result's
// (expected_assertion): the item's hash, its suite fields', is the same whatever the
// assertions say.
func TestPromptfooAssertionAsExpected(t *testing.T) {
	js := map[string]any{"type": "javascript", "value": "output.length < 140"}
	long := strings.Repeat("x", 400)
	for _, tc := range []struct {
		name    string
		asserts []any
		vars    map[string]any // added to the test's vars
		want    string
	}{
		{"contains beside javascript", []any{js, map[string]any{"type": "contains", "value": "Madrid"}}, nil, "contains: Madrid"},
		{"equals is the value alone", []any{map[string]any{"type": "equals", "value": "Madrid"}}, nil, "Madrid"},
		{"a number", []any{map[string]any{"type": "equals", "value": 42.0}}, nil, "42"},
		{"icontains", []any{map[string]any{"type": "icontains", "value": "madrid"}}, nil, "icontains: madrid"},
		{"starts-with", []any{map[string]any{"type": "starts-with", "value": "The capital"}}, nil, "starts-with: The capital"},
		{"regex", []any{map[string]any{"type": "regex", "value": `^\d+$`}}, nil, `regex: ^\d+$`},
		{"two text assertions", []any{map[string]any{"type": "contains", "value": "a"}, map[string]any{"type": "contains", "value": "b"}}, nil, ""},
		{"a list value", []any{map[string]any{"type": "contains", "value": []any{"a", "b"}}}, nil, ""},
		{"no text assertion", []any{js, map[string]any{"type": "is-json"}}, nil, ""},
		{"not-contains is no expected text", []any{map[string]any{"type": "not-contains", "value": "Barcelona"}}, nil, ""},
		{"an expected var wins", []any{map[string]any{"type": "contains", "value": "Madrid"}}, map[string]any{"expected": "Madrid, the capital"}, ""},
		// 300 runes: 292 of the text ("contains: " and 282 x) and the 8 of " … (cut)"
		// (eval.ClipNote).
		{"cut", []any{map[string]any{"type": "contains", "value": long}}, nil, "contains: " + long[:282] + " … (cut)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec map[string]any
			if err := json.Unmarshal([]byte(pfLine(t, "wrong capital", "echo", nil)), &rec); err != nil {
				t.Fatal(err)
			}
			test := rec["testCase"].(map[string]any)
			test["assert"] = tc.asserts
			for k, v := range tc.vars {
				test["vars"].(map[string]any)[k] = v
			}
			b, _ := json.Marshal(rec)
			path := writeLines(t, "results.jsonl", string(b))
			runs, _, err := importer.LoadRuns(path, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := runs[0].Results[0]
			if res.ExpectedAssertion != tc.want {
				t.Errorf("expected_assertion %q; want %q", res.ExpectedAssertion, tc.want)
			}
			if _, ok := res.Fields["expected_assertion"]; ok {
				t.Error("expected_assertion among the item's fields")
			}
			// The item's hash is its suite fields' alone: the same with no assertion at all.
			test["assert"] = nil
			b, _ = json.Marshal(rec)
			bare, _, err := importer.LoadRuns(writeLines(t, "bare.jsonl", string(b)), importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			it, err := eval.ItemFromResult(path, res)
			if err != nil {
				t.Fatal(err)
			}
			want, err := eval.ItemFromResult(path, bare[0].Results[0])
			if err != nil {
				t.Fatal(err)
			}
			if it.Hash != want.Hash {
				t.Errorf("item hash %s; want %s, as without the assertion", it.Hash, want.Hash)
			}
		})
	}
}
