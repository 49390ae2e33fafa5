package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/stats"
)

// subThresholdBlock is a regression block whose plain Δ (−0.7 pts) is under max_drop
// (2.0 pts): the evidence method decided on its estimated drop (2.9 pts) and three
// stable items. Decide computes the decision from the comparison's measurements, as
// evalgate check does.
func subThresholdBlock(t *testing.T) *Report {
	t.Helper()
	ev := stats.EvidenceResult{Items: 200, PredictedMean: 0.9, CandMean: 0.871, Drop: 0.029, SE: 0.006, Z: 6, PValue: 1e-6,
		SumPQ: 1, SumVarP: 0.1}
	cmp := &baseline.Comparison{Base: 0.9, Cand: 0.893, Delta: -0.007, RelDelta: -0.007 / 0.9, CandidateRuns: 1, Compared: 200,
		CI: stats.Interval{Lo: -0.03, Hi: 0.016, Level: 0.95}, Evidence: ev,
		EvidenceItems: []baseline.EvidenceItem{{ID: "q10", BaseScore: 1, BaseRuns: 3, BasePassRate: 1, Predicted: 0.99, CandRuns: 1, Z: 7},
			{ID: "q11", BaseScore: 1, BaseRuns: 3, BasePassRate: 1, Predicted: 0.99, CandRuns: 1, Z: 7}}}
	md := 0.02
	rg := &gate.Regression{MaxDrop: &md, Mode: gate.Absolute, Level: gate.Hard, Method: gate.MethodEvidence, Inconclusive: gate.InconclusiveWarn}
	v := rg.Compare(cmp)
	if v.Status != gate.Fail {
		t.Fatalf("verdict %s; want fail (estimated drop 2.9 pts, z 6)", v.Status)
	}
	return &Report{Suite: "s", ScoringSystem: "scoringSystem/1.0.0", GradingSystem: "gradingSystem/1.0.0",
		Summary: Summary{Items: 200, Runs: 1, Mean: 0.893}, Comparison: cmp, Gates: v.Gates, Regression: v.Regression,
		Verdict: *v, Mode: gate.Absolute}
}

// A blocked verdict printed next to a drop under max_drop must say what decided: in the
// headline, the table, the markdown comment, the check run's title and summary, and the
// JSON. This test fails if any of them shows "blocked" beside "Δ −0.7 pts" without the
// figure that decided and its threshold: "estimated drop 2.9 pts, over the 2.0 pts
// allowed" in the headline, or the full "decided by estimated drop 2.9 pts > 2.0 pts"
// line with the evidence items.
func TestBlockedBesideSubThresholdDropSaysWhatDecided(t *testing.T) {
	r := subThresholdBlock(t)
	want := regexp.MustCompile(`decided by estimated drop 2\.9 pts (>|&gt;) 2\.0 pts; evidence: q10, q11|blocked — estimated drop 2\.9 pts, over the 2\.0 pts allowed`)
	var table, js bytes.Buffer
	if err := r.WriteTerminal(&table, Terminal{Width: 400}); err != nil { // one line per sentence, to match
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	md := r.Markdown(MarkdownOptions{})
	for name, out := range map[string]string{
		"headline": r.headline() + "\n" + r.scoreLine(), "table": table.String(), "markdown": md,
		"check-run title": r.Title(), "check-run summary": md, "json": js.String(),
	} {
		if !strings.Contains(out, "−0.7 pts") && name != "json" && name != "check-run title" {
			t.Errorf("%s: no plain Δ −0.7 pts: the case does not test what it says", name)
		}
		if name == "json" {
			if !strings.Contains(out, `"decided_by": "decided by estimated drop 2.9 pts > 2.0 pts`) {
				t.Errorf("json: no decided_by line:\n%s", out)
			}
			continue
		}
		if !want.MatchString(out) {
			t.Errorf("%s shows a block beside a sub-threshold Δ without the line that decided:\n%s", name, out)
		}
	}
}
