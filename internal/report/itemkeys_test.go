package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// rubric.ReportItemKeys, which the rubric refuses as dimension names, is exactly the
// set of keys an item of the JSON report writes besides the dimensions' own values:
// a new item key must be added there, or a dimension could be named like it.
func TestReportItemKeysAreReserved(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	res := &eval.Result{LatencyE2EMs: f(120), LatencyModelMs: f(100), InputTokens: f(10), OutputTokens: f(5), TimedOut: true, Error: "boom"}
	it := Item{ID: "a", Line: 3, Tags: []string{"t"}, Prompt: "p", Expected: "e", Got: "g", Score: 0.5,
		Breakdown: []KV{{"d", 0.5}}, Weighted: []KV{{"d", 0.5}}, Raw: []KV{{"d", 1.0}}, Labels: map[string]string{"d": "pass"},
		Pass: true, PassRuns: 1, Runs: 2, CappedBy: "d", Missing: true, MissingRuns: 1, Pending: true,
		EvaluatorError: "x", Notes: map[string]string{"d": "n"}, Sample: sampleFields(res)}
	b, err := it.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	want := slices.Clone(rubric.ReportItemKeys)
	slices.Sort(keys)
	slices.Sort(want)
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("item keys (-rubric.ReportItemKeys +written):\n%s", diff)
	}
}
