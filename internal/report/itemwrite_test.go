package report_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStreamedItemsAreTheItemsIndented: each item a streamed report writes (straight from
// the scores and the captured parts) is byte for byte the item's own JSON indented as
// the report indents it, on every example: several runs, missing and pending items,
// judge keys beside the item's, notes, labels, nested references and tags.
func TestStreamedItemsAreTheItemsIndented(t *testing.T) {
	cases := []struct{ config string }{
		{"../../examples/tutor-capstone/evalgate.yaml"},
		{"../../examples/council-rubric/evalgate.yaml"},
		{"../../examples/release-readiness/evalgate.yaml"},
		{"../../examples/flowmcp-grading/evalgate.yaml"},
		{"../../examples/promptfoo/evalgate.yaml"},
		{"../../examples/inspect/evalgate.yaml"},
		{"../../examples/lm-eval/evalgate.yaml"},
	}
	for _, tc := range cases {
		r := checked(t, tc.config)
		var buf bytes.Buffer
		if err := r.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		var doc struct{ Items []json.RawMessage }
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Items) == 0 || len(doc.Items) != len(r.Items) {
			t.Fatalf("%s: %d items written, %d kept", tc.config, len(doc.Items), len(r.Items))
		}
		for k, it := range r.Items {
			compact, err := it.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := json.Indent(&want, compact, "    ", "  "); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), string(doc.Items[k])); diff != "" {
				t.Errorf("%s: item %s (-indented +streamed):\n%s", tc.config, it.ID, diff)
			}
		}
	}
}
