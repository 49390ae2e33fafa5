package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/stats"
)

// inconclusiveReport is a 100-item report whose regression decision reads ev against a
// baseline mean of 0.8 with max_drop 2 pts (the evidence method, absolute).
func inconclusiveReport(t *testing.T, ev stats.EvidenceResult) *Report {
	t.Helper()
	ev.Items, ev.PredictedMean, ev.CandMean = 100, 0.8, 0.8-ev.Drop
	cmp := &baseline.Comparison{Base: 0.8, Cand: 0.8 - ev.Drop, Delta: -ev.Drop, RelDelta: -ev.Drop / 0.8, BaselineRuns: 3, CandidateRuns: 1,
		Compared: 100, Evidence: ev}
	md := 0.02
	rg := &gate.Regression{MaxDrop: &md, Mode: gate.Absolute, Level: gate.Hard, Method: gate.MethodEvidence, Inconclusive: gate.InconclusiveWarn}
	v := rg.Compare(cmp)
	return &Report{Suite: "s", Summary: Summary{Items: 100, Runs: 1, Mean: cmp.Cand}, Comparison: cmp, Gates: v.Gates,
		Regression: v.Regression, Verdict: *v, Mode: gate.Absolute}
}

// Each inconclusive headline says plainly why the drop did not decide and that more
// runs settle it. An estimated drop of 5 pts (SE 2 pts) is over max_drop 2 pts: with
// p = 0.01 it is beyond the suite's noise, but PThin 0.3 says a candidate run bad as a
// whole could explain it (thin runs); with p = 0.3 it is within the noise. An
// estimate of 1.5 pts with p = 0.01 is under max_drop, but its interval reaches
// 1.5 + 1.96·2 = 5.4 pts, over it.
func TestInconclusiveHeadlinesSayWhyAndHowToSettle(t *testing.T) {
	const settleHint = "; settle with more runs (evalgate check --settle re-runs the items that carried it)"
	cases := []struct {
		name string
		ev   stats.EvidenceResult
		want string
	}{
		{"thin runs", stats.EvidenceResult{Drop: 0.05, SE: 0.02, PValue: 0.01, PThin: 0.3},
			"inconclusive — estimated drop 5.0 pts, over the 2.0 pts allowed but on too few runs to tell from noise" + settleHint},
		// The items alone reject (p_item 0.004), the run-level guard on 2 degrees of
		// freedom (a 3-run baseline, one run) does not (p 0.2): too few runs as well.
		{"guard on few runs", stats.EvidenceResult{Drop: 0.05, SE: 0.02, PValue: 0.2, PItem: 0.004, DF: 2},
			"inconclusive — estimated drop 5.0 pts, over the 2.0 pts allowed but on too few runs to tell from noise" + settleHint},
		{"within the noise", stats.EvidenceResult{Drop: 0.05, SE: 0.02, PValue: 0.3},
			"inconclusive — estimated drop 5.0 pts, over the 2.0 pts allowed but within the suite's noise" + settleHint},
		{"may be over", stats.EvidenceResult{Drop: 0.015, SE: 0.02, PValue: 0.01},
			"inconclusive — estimated drop 1.5 pts, under the 2.0 pts allowed but a drop that may be over it" + settleHint},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := inconclusiveReport(t, tc.ev)
			r.Regression.RerunCommand = "evalgate check --settle" // the config can re-run items
			if r.Verdict.Status != gate.Inconclusive || r.Regression.ThinRuns != (tc.name == "thin runs") || r.Regression.ItemRejects != (tc.name == "guard on few runs") {
				t.Fatalf("verdict %s, thin %v: the case does not test what it says (%s)", r.Verdict.Status, r.Regression.ThinRuns, r.Regression.DecidedBy)
			}
			if h := r.headline(); h != "evalgate · s: "+tc.want {
				t.Errorf("headline\n%q; want\n%q", h, "evalgate · s: "+tc.want)
			}
		})
	}
	// A config that cannot re-run items (no run: block, no rerun: command) is not told
	// to run check --settle: the settle hint under the headline says what to add.
	r0 := inconclusiveReport(t, cases[0].ev)
	if h, want := r0.headline(), "; settle with more runs of the items that carried it"; !strings.HasSuffix(h, want) {
		t.Errorf("headline %q; want it to end %q", h, want)
	}
	// The check run's title (the verdict's reason) says it of thin runs and of a guard
	// on too few runs alike, never "within the suite's noise", which the headline and
	// the decision's own line contradict. The guard's 2 degrees of freedom are under
	// gate.FewRunDF (8), so both cases are read as too few runs by the gate itself.
	for _, tc := range cases[:2] {
		r := inconclusiveReport(t, tc.ev)
		if title := r.Title(); !strings.Contains(title, "on too few runs to tell from noise") || strings.Contains(title, "within the suite's noise") {
			t.Errorf("%s: title %q; want it to say too few runs", tc.name, title)
		}
		if tc.name == "guard on few runs" && (!r.Regression.FewRunDF || strings.Contains(r.Regression.DecidedBy, "within the suite's noise")) {
			t.Errorf("%s: few_run_df %v, decided by %q; want the decision to carry too few runs", tc.name, r.Regression.FewRunDF, r.Regression.DecidedBy)
		}
	}
	// 8 degrees of freedom (a history of baselines) are enough: the same guard is then
	// read as the suite's noise.
	enough := cases[1].ev
	enough.DF = gate.FewRunDF
	if r := inconclusiveReport(t, enough); r.Regression.FewRunDF || !strings.Contains(r.Title(), "within the suite's noise") {
		t.Errorf("guard on %g degrees of freedom: few_run_df %v, title %q; want the suite's noise", enough.DF, r.Regression.FewRunDF, r.Title())
	}
}

// An accepted regression's headline says what was accepted (the drop, its figure and
// threshold) and by what (who applied which label), not the gate's raw reason twice.
func TestAcceptedHeadlineSaysWhatAndByWhat(t *testing.T) {
	// An estimated drop of 5 pts, p = 0.001 and no thin runs: a block, then accepted.
	r := inconclusiveReport(t, stats.EvidenceResult{Drop: 0.05, SE: 0.01, PValue: 0.001})
	if r.Verdict.Status != gate.Fail {
		t.Fatalf("verdict %s; want fail before the acceptance", r.Verdict.Status)
	}
	r.Verdict.Status, r.Verdict.Blocks, r.Verdict.AcceptedBy, r.Verdict.AcceptLabel = gate.Accepted, false, "octocat", "evalgate/accept"
	r.Verdict.Reason = "regression accepted with the evalgate/accept label by octocat: " + r.Verdict.Reason
	want := "evalgate · s: regression accepted — estimated drop 5.0 pts, over the 2.0 pts allowed; accepted by octocat with the evalgate/accept label"
	if h := r.headline(); h != want {
		t.Errorf("headline\n%q; want\n%q", h, want)
	}
	// A proposed gate accepted: the gate and what it changes, then what it finds.
	r.Proposed = &ProposedGate{AcceptedBy: "octocat", AcceptLabel: "evalgate/accept", RemovedTotal: 2}
	want = "evalgate · s: regression accepted — the proposed gate (removes 2 items), accepted by octocat with the evalgate/accept label; under it, estimated drop 5.0 pts, over the 2.0 pts allowed"
	if h := r.headline(); h != want {
		t.Errorf("headline\n%q; want\n%q", h, want)
	}
}
