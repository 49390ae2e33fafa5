package ghaction

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diagnose"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
	"github.com/evalgate/evalgate/internal/report"
)

// A finding that names items becomes a notice on each item's suite line; one that
// names no item (a budget drift) has no line to point at and adds none.
func TestFindingsBecomeAnnotationsOnSuiteLines(t *testing.T) {
	r := &report.Report{SuiteFile: "suite.yaml", Verdict: gate.Verdict{Status: gate.Pass}, Findings: []diagnose.Finding{
		{Rule: diagnose.RuleTagFailure, Message: "all 3 `go` items fail `correctness`", Items: []diagnose.ItemRef{{ID: "go-1", Line: 4}, {ID: "go-2", Line: 7}}},
		{Rule: diagnose.RuleBudgetDrift, Message: "latency p50 rose 50%"},
	}}
	got := Annotations(r)
	if len(got) != 2 {
		t.Fatalf("%d annotations; want 2: %+v", len(got), got)
	}
	for i, line := range []int{4, 7} {
		a := got[i]
		if a.Path != "suite.yaml" || a.StartLine != line || a.Level != github.LevelNotice ||
			!strings.HasPrefix(a.Title, "diagnosis: tag_failure: go-") || strings.Contains(a.Message, "`") {
			t.Errorf("annotation %d: %+v", i, a)
		}
	}
}
