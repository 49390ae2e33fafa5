package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
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

// A gate's message (a failed gate's text, a warning's, a skipped gate's reason) names
// items and metrics from the results: it shows a bidi control as U+XXXX too.
func TestJUnitGateMessagesShowBidiVisibly(t *testing.T) {
	one := 1.0
	r := &Report{Suite: "s", Summary: Summary{Items: 1, Runs: 1},
		Gates: []gate.Result{
			{Name: "hard", Kind: gate.Hard, Level: gate.Hard, Metric: "m", Op: ">=", Actual: &one, Status: gate.Fail, Message: "fail\u202eA"},
			{Name: "soft", Kind: gate.Soft, Level: gate.Soft, Metric: "m", Op: ">=", Actual: &one, Status: gate.Warn, Message: "warn\u202eB"},
			{Name: "regression", Kind: gate.KindRegression, Status: gate.Skipped, Message: "skip\u202eC"},
		},
		Verdict: gate.Verdict{Status: gate.Fail, Blocks: true}}
	var b bytes.Buffer
	if err := r.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	noHidden(t, b.String(), true)
	for _, want := range []string{"failU+202EA", "warnU+202EB", "skipU+202EC"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the JUnit file does not show %q:\n%s", want, b.String())
		}
	}
}
