package ghaction

import (
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/report"
)

// What the action publishes for a report, case by case: the step's outputs come from
// the report, what the verdict means (soft failure, the step's exit code under fail-on)
// from gate.
func TestNewOutcome(t *testing.T) {
	soft := []gate.Result{{Kind: gate.KindSoft, Status: gate.Warn}}
	inconclusive := []gate.Result{{Kind: gate.KindRegression, Status: gate.Inconclusive}}
	for _, tt := range []struct {
		name string
		r    report.Report
		// want: outputs, and the step's exit code under fail-on hard, soft, never.
		changed, hasBase, failedSoft bool
		delta                        float64
		exit                         [3]int
	}{
		{"pass, same as the baseline", report.Report{Verdict: gate.Verdict{Status: gate.Pass}, Comparison: &baseline.Comparison{Base: 0.9}},
			false, true, false, 0, [3]int{0, 0, 0}},
		{"pass, no baseline: changed", report.Report{Verdict: gate.Verdict{Status: gate.Pass}},
			true, false, false, 0, [3]int{0, 0, 0}},
		{"warn from a soft gate: fails only under fail-on soft", report.Report{Verdict: gate.Verdict{Status: gate.Warn}, Gates: soft,
			Comparison: &baseline.Comparison{Base: 0.9, Delta: -0.01}}, true, true, true, -0.01, [3]int{0, 1, 0}},
		{"inconclusive, warn: fails only under fail-on soft", report.Report{Verdict: gate.Verdict{Status: gate.Inconclusive}, Gates: inconclusive,
			Comparison: &baseline.Comparison{Base: 0.9, Delta: -0.01}}, true, true, true, -0.01, [3]int{0, 1, 0}},
		{"inconclusive, blocks", report.Report{Verdict: gate.Verdict{Status: gate.Inconclusive, Blocks: true}, Gates: inconclusive,
			Comparison: &baseline.Comparison{Base: 0.9, Delta: -0.01}}, true, true, true, -0.01, [3]int{1, 1, 0}},
		{"fail", report.Report{Verdict: gate.Verdict{Status: gate.Fail, Blocks: true},
			Comparison: &baseline.Comparison{Base: 0.9, Delta: -0.05}}, true, true, false, -0.05, [3]int{1, 1, 0}},
		{"same as the baseline, but a proposed gate: changed", report.Report{Verdict: gate.Verdict{Status: gate.Pass},
			Comparison: &baseline.Comparison{Base: 0.9}, Proposed: &report.ProposedGate{}}, true, true, false, 0, [3]int{0, 0, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r
			r.Suite = "tutor"
			out := NewOutcome(&r, Rendered{ReportPath: "r.json", HTMLPath: "r.html", Markdown: "body"}, nil)
			if out.Suite != "tutor" || out.Verdict != r.Verdict.Status || out.Blocks != r.Verdict.Blocks || out.ReportPath != "r.json" || out.HTMLPath != "r.html" ||
				out.CommentMarkdown != "body" || out.CheckSummary != "body" {
				t.Errorf("outcome %+v", out)
			}
			if out.Changed != tt.changed || out.HasBaseline != tt.hasBase || out.FailedSoft != tt.failedSoft || out.Delta != tt.delta {
				t.Errorf("changed %v, has baseline %v, failed soft %v, delta %v; want %v, %v, %v, %v",
					out.Changed, out.HasBaseline, out.FailedSoft, out.Delta, tt.changed, tt.hasBase, tt.failedSoft, tt.delta)
			}
			for i, f := range []gate.FailOn{gate.FailOnHard, gate.FailOnSoft, gate.FailOnNever} {
				if got := (&runner{in: Inputs{FailOn: f}}).exitCode(out); got != tt.exit[i] {
					t.Errorf("fail-on %s: exit %d; want %d", f, got, tt.exit[i])
				}
			}
		})
	}
}
