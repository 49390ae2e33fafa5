package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
)

// TestCountGateOverRunsInWholeItems: a count gate (errors ≤ 0) over three runs that
// errored on 0, 1 and 0 items is judged on the mean, (0 + 1 + 0)/3 = 0.3333 items a
// run; the figure lists the runs' whole counts instead of the mean's spread (sample std
// √((2·0.3333² + 0.6667²)/2) = 0.5774), which the old row printed: "0.3333 items ±
// 0.5774 items". Counts are whole items in every format.
func TestCountGateOverRunsInWholeItems(t *testing.T) {
	mean := 1.0 / 3
	r := &Report{Suite: "s", ScoringSystem: "scoringSystem/1.0.0", GradingSystem: "gradingSystem/1.0.0",
		Summary: Summary{Items: 5, Runs: 3, Passed: 5},
		Runs:    []Run{{Metrics: map[string]float64{"errors": 0}}, {Metrics: map[string]float64{"errors": 1}}, {Metrics: map[string]float64{"errors": 0}}},
		Gates: []gate.Result{{Name: "no errors", Kind: "soft", Level: "soft", Metric: "errors", Op: "<=", Threshold: 0,
			Actual: &mean, Std: 0.5774, Status: gate.Warn}},
		Verdict: gate.Verdict{Status: gate.Warn, Reason: "no errors"}}
	var table bytes.Buffer
	if err := r.WriteTerminal(&table, Terminal{Width: 200}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": r.Markdown(MarkdownOptions{}), "table": table.String()} {
		if !strings.Contains(out, "0.3333 items a run (runs: 0, 1, 0)") || strings.Contains(out, "0.5774") {
			t.Errorf("%s: the errors gate's figure is not the runs' whole counts:\n%s", name, out)
		}
	}
}
