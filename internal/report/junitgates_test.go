package report

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
)

// An inconclusive regression under `regression.inconclusive: block` blocks the pull
// request (exit 1), so its JUnit test case fails as a failed gate's does; one that only
// warns passes with a warning in its system-out. (The test case passed silently in both
// cases before: the gates' suite counted 0 failures under a blocking verdict.)
func TestJUnitGateCaseFollowsTheVerdict(t *testing.T) {
	for _, c := range []struct {
		blocks   bool
		failures int
		out      string
	}{
		{true, 1, ""},
		{false, 0, "warning: drop 4.2 pts, want drop ≤ 2.0 pts. within the noise"},
	} {
		drop := 0.042
		g := gate.Result{Name: "regression", Kind: gate.KindRegression, Level: "hard", Threshold: 0.02, Actual: &drop,
			Status: gate.Inconclusive, Message: "within the noise"}
		r := &Report{Suite: "s", Gates: []gate.Result{g},
			Verdict: gate.Verdict{Status: gate.Inconclusive, Blocks: c.blocks, Gates: []gate.Result{g}}}
		doc, out := readJUnit(t, r)
		gates := doc.Suites[0]
		if gates.Failures != c.failures || doc.Failures != c.failures {
			t.Errorf("blocks=%v: %d failure(s) in the gates' suite, %d in all; want %d:\n%s", c.blocks, gates.Failures, doc.Failures, c.failures, out)
		}
		if len(gates.Cases) != 1 {
			t.Fatalf("blocks=%v: %d gate test cases; want 1:\n%s", c.blocks, len(gates.Cases), out)
		}
		if got := gates.Cases[0].SystemOut; c.out != "" && got != c.out {
			t.Errorf("blocks=%v: system-out %q; want %q", c.blocks, got, c.out)
		}
	}
}

// readJUnit writes r as JUnit XML and reads it back: the document and its text.
func readJUnit(t *testing.T, r *Report) (junitSuites, string) {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc, b.String()
}
