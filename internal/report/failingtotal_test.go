package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestFailingHeadingGivesTheTotal: a large streamed suite keeps only its worst failing
// items in memory; the markdown and table headings still count every failing item.
// 1,000 items, 700 passing, 20 pending: 1000 − 700 − 20 = 280 failing, of which the
// report kept 25; the lists show MaxListedItems (20) and say 280 − 20 = 260 more.
func TestFailingHeadingGivesTheTotal(t *testing.T) {
	r := &Report{Suite: "s", SuiteFile: "suite.jsonl", ScoringSystem: "scoringSystem/1.0.0", GradingSystem: "gradingSystem/1.0.0",
		Summary: Summary{Items: 1000, Runs: 1, Passed: 700, Pending: make([]string, 20)}}
	for i := range 25 {
		r.Items = append(r.Items, Item{ID: fmt.Sprintf("f-%d", i), Line: i + 1, Why: "wrong"})
	}
	if got := r.FailingTotal(); got != 280 {
		t.Fatalf("FailingTotal = %d; want 280", got)
	}
	var table bytes.Buffer
	if err := r.WriteTerminal(&table, Terminal{Width: 200}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": r.Markdown(MarkdownOptions{}), "table": table.String()} {
		if !strings.Contains(out, "Failing items (280)") {
			t.Errorf("%s: no heading \"Failing items (280)\":\n%s", name, out)
		}
		if !strings.Contains(out, "260 more") {
			t.Errorf("%s: does not say 260 more:\n%s", name, out)
		}
	}
}
