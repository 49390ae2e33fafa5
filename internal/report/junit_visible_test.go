package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// The JUnit file shows untrusted text as every other renderer does: a bidi control in
// an item id, an output or a reason becomes a visible U+XXXX (test reporters put the
// names into check runs and summaries, where U+202E would reorder them), and an escape
// character becomes \x1b rather than an anonymous U+FFFD.
func TestJUnitShowsBidiAndControlCharactersVisibly(t *testing.T) {
	r := &Report{Suite: "s", Summary: Summary{Items: 1, Runs: 1},
		Items: []Item{{ID: "bidi\u202eevil", Prompt: "ask\u2066", Got: "out\x1b[2J", Why: "why\u202d",
			Breakdown: []KV{{"d", 0.0}}, Weighted: []KV{{"d", 0.0}}, Notes: map[string]string{"d": "note\u200f"}}}}
	var b bytes.Buffer
	if err := r.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	noHidden(t, b.String(), true)
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Suites[1].Cases[0]
	if c.Name != "bidiU+202Eevil" || c.Failure == nil || !strings.Contains(c.Failure.Message, "whyU+202D") {
		t.Fatalf("case %+v", c)
	}
	for _, want := range []string{"noteU+200F", "askU+2066", `out\x1b[2J`} {
		if !strings.Contains(c.Failure.Text, want) {
			t.Errorf("failure text %q lacks %q", c.Failure.Text, want)
		}
	}
}
