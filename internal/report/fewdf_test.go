package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/stats"
)

// An inconclusive verdict that the items alone would block (p_item 0.004 < α 0.05, the
// guarded p 0.2 not) on a run-level guard of 2 degrees of freedom (a 3-run baseline,
// one PR run, no history) says how to add degrees of freedom; with 10 (a history) it
// does not, nor does a pass (p 0.6, p_item 0.5).
func TestFewDegreesOfFreedomSaysHowToAddThem(t *testing.T) {
	decide := func(df float64, drop, p, pItem float64) *Report {
		ev := stats.EvidenceResult{Items: 200, PredictedMean: 0.9, CandMean: 0.9 - drop, Drop: drop, SE: 0.01, PValue: p, PItem: pItem,
			DF: df, SumPQ: 1, SumVarP: 0.1}
		cmp := &baseline.Comparison{Base: 0.9, Cand: 0.9 - drop, Delta: -drop, CandidateRuns: 1, Compared: 200, Evidence: ev,
			CI: stats.Interval{Lo: -0.06, Hi: 0.01, Level: 0.95}}
		md := 0.02
		rg := &gate.Regression{MaxDrop: &md, Mode: gate.Absolute, Level: gate.Hard, Method: gate.MethodEvidence, Inconclusive: gate.InconclusiveWarn}
		v := rg.Compare(cmp)
		return &Report{Suite: "s", Summary: Summary{Items: 200, Runs: 1, Mean: 0.9 - drop}, Comparison: cmp, Gates: v.Gates,
			Regression: v.Regression, Verdict: *v, Mode: gate.Absolute}
	}
	const hint = "known to 2 degrees of freedom only"
	r := decide(2, 0.033, 0.2, 0.004)
	if r.Regression.Outcome != gate.Inconclusive || !r.Regression.ItemRejects {
		t.Fatalf("outcome %s, item rejects %v; want inconclusive that the items alone reject", r.Regression.Outcome, r.Regression.ItemRejects)
	}
	md := r.Markdown(MarkdownOptions{})
	if !strings.Contains(md, hint) || !strings.Contains(md, "p = 0.004 without the run-level guard") {
		t.Errorf("markdown does not say how to add degrees of freedom:\n%s", md)
	}
	if md := decide(10, 0.033, 0.2, 0.004).Markdown(MarkdownOptions{}); strings.Contains(md, "degrees of freedom only") {
		t.Error("with 10 degrees of freedom the hint still shows")
	}
	pass := decide(2, 0.005, 0.6, 0.5)
	if pass.Regression.Outcome != gate.Pass {
		t.Fatalf("outcome %s; want pass (0.5-pt estimate, p 0.6)", pass.Regression.Outcome)
	}
	if md := pass.Markdown(MarkdownOptions{}); strings.Contains(md, "degrees of freedom only") {
		t.Error("a pass shows the hint")
	}
}
