package report

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/settle"
)

// notCompared reports whether the regression gate did not run for want of a baseline
// (not because the config turns it off, nor because `evalgate score` never compares).
func (r *Report) notCompared() bool {
	return r.Comparison == nil && r.Verdict.NoBaseline != ""
}

// headlineStatus is the status the headline's mark shows: a run that was not compared
// is never green, whatever the other gates say.
func (r *Report) headlineStatus() gate.Status {
	if r.Shard() != "" {
		return gate.Skipped // not gated: neither green nor red
	}
	if r.notCompared() && r.Verdict.Status == gate.Pass {
		return gate.Warn
	}
	return r.Verdict.Status
}

// headline is the verdict in one sentence: the word, then the figure that decided and
// its threshold ("blocked — estimated drop 9.6 pts, over the 2.0 pts allowed").
func (r *Report) headline() string {
	s := fmt.Sprintf("evalgate · %s: %s", r.Suite, r.verdictSentence(r.Verdict.Word()))
	if len(r.BudgetCut) > 0 {
		s += " (a run was cut by its budget: items it never ran are missing)"
	}
	return s
}

// Shard is the part of the suite a shard's report scored ("2/4"), or "" for the
// whole suite's report (a merged one carries "1/1").
func (r *Report) Shard() string {
	if st := r.ShardState; st != nil && st.Shard != "1/1" {
		return st.Shard
	}
	return ""
}

// verdictSentence is what follows the suite's name in the headline.
func (r *Report) verdictSentence(word string) string {
	if sh := r.Shard(); sh != "" {
		// Its gates saw part of the suite: merge gates the whole.
		return "shard " + sh + " not gated — a shard alone does not decide: evalgate merge joins every shard's report and gates the whole suite"
	}
	if r.notCompared() {
		why := "no baseline is configured"
		if r.Verdict.MissingBaseline != "" {
			why = "the baseline " + r.Verdict.MissingBaseline + " does not exist"
		}
		if r.Verdict.Status == gate.Pass {
			return "not compared — the regression gate did not run: " + why + "; the other gates pass"
		}
		if g := r.decidingGate(); g != nil && g.Kind == gate.KindRegression {
			return word + " — " + r.Verdict.Reason // the reason is the missing baseline
		}
		return word + " — " + r.Verdict.Reason + "; the regression gate did not run: " + why
	}
	if r.Verdict.Status == gate.Accepted {
		return word + " — " + r.acceptedSentence()
	}
	if g := r.decidingGate(); g != nil && g.Kind == gate.KindRegression {
		if d := r.decision(g.Name); d != nil {
			return word + " — " + r.dropSentence(d)
		}
	}
	if r.Verdict.Status == gate.Pass {
		if d := r.Regression; d != nil {
			return word + " — " + r.dropSentence(d) + "; all gates pass"
		}
	}
	return word + " — " + r.Verdict.Reason
}

// acceptedSentence says what a maintainer accepted and by what: the drop that blocked,
// its figure and threshold, or the proposed gate and what it changes; then who applied
// which label ("estimated drop 10.0 pts, over the 2.0 pts allowed; accepted by octocat
// with the evalgate/accept label").
func (r *Report) acceptedSentence() string {
	v := r.Verdict
	how := "accepted by " + v.AcceptedBy + " with the " + v.AcceptLabel + " label"
	if p := r.Proposed; p != nil && p.AcceptedBy != "" {
		s := "the proposed gate (" + p.Short() + "), " + how
		if d := r.Regression; d != nil {
			s += "; under it, " + r.dropSentence(d)
		}
		return s
	}
	for i := range r.Gates {
		g := &r.Gates[i]
		if g.Kind != gate.KindRegression || (g.Status != gate.Fail && g.Status != gate.Inconclusive) {
			continue
		}
		if d := r.decision(g.Name); d != nil {
			return r.dropSentence(d) + "; " + how
		}
	}
	return v.Reason
}

// decidingGate is the gate that set the verdict: the first with the verdict's status
// (gate's order: fail, then inconclusive, then warn). Nil for a pass, an accepted
// regression or a veto.
func (r *Report) decidingGate() *gate.Result {
	st := r.Verdict.Status
	if st == gate.Pass || st == gate.Accepted {
		return nil
	}
	for i := range r.Gates {
		if r.Gates[i].Status == st {
			return &r.Gates[i]
		}
	}
	return nil
}

// dropSentence says what a regression decision found in words, with the figure and
// the threshold and without statistics: "estimated drop 9.6 pts, over the 2.0 pts
// allowed (3 items newly fail)".
func (r *Report) dropSentence(d *gate.RegressionDecision) string {
	s := ""
	if d.Gate != "regression" {
		s = d.Gate + ": "
	}
	// The figure and the limit at one precision, so that they read as the decision
	// compared them ("2.04 pts, over the 2.00 pts allowed", never "2.0 over 2.0").
	value, limit := gate.FormatComparison(d.Value, d.Threshold, d.Exceeded, d.Mode)
	if gain, ok := strings.CutPrefix(value, "−"); ok && d.Outcome == gate.Pass {
		// A negative drop is a gain: "estimated gain 2.5 pts", not "estimated drop −2.5 pts"
		// (the limit on drops says nothing about it).
		return s + strings.Replace(d.Statistic, "drop", "gain", 1) + " " + gain + r.newlyFailing()
	}
	s += fmt.Sprintf("%s %s", d.Statistic, value)
	settleIt := false // an inconclusive drop says what decides it
	switch {
	case d.Outcome == gate.Inconclusive && d.Exceeded && d.Rejects && d.Judge != nil && d.Judge.Reason != "":
		// Beyond the suite's noise: only the α floor (or a changed judge's unmeasured
		// reliability) kept it from blocking.
		who := "a judge under the reliability floor"
		if len(d.Judge.Unmeasured) > 0 {
			who = "a judge whose reliability is unmeasured since it changed"
			if len(d.Judge.Unmeasured) < len(d.Judge.Unreliable) {
				who = "judges under the reliability floor or unmeasured since they changed"
			}
		}
		s += fmt.Sprintf(", over the %s allowed but carried by %s", limit, who)
	case d.Outcome == gate.Inconclusive && r.fewRuns(d):
		// Beyond what the items' noise explains, but one look at so few runs cannot
		// tell it from a run that was bad as a whole.
		s += fmt.Sprintf(", over the %s allowed but on too few runs to tell from noise", limit)
		settleIt = true
	case d.Outcome == gate.Inconclusive && d.Exceeded:
		s += fmt.Sprintf(", over the %s allowed but within the suite's noise", limit)
		settleIt = true
	case d.Outcome == gate.Inconclusive:
		s += fmt.Sprintf(", under the %s allowed but a drop that may be over it", limit)
		settleIt = true
	case d.Exceeded:
		s += fmt.Sprintf(", over the %s allowed", limit)
	default:
		s += fmt.Sprintf(", within the %s allowed", limit)
	}
	s += r.newlyFailing()
	if settleIt {
		s += "; " + r.settleWithMoreRuns(d)
	}
	return s
}

// settleWithMoreRuns is how the headline of an inconclusive drop says what decides it:
// more runs of the items that carried it, through check --settle when the config can
// re-run them (d has a command; the report's settle hint says what to add when not),
// with settle's own budget grown when its last round spent it.
func (r *Report) settleWithMoreRuns(d *gate.RegressionDecision) string {
	switch {
	case r.Settle != nil && r.Settle.Stop == settle.BudgetSpent:
		return "settle's budget is spent: settle with more runs (a larger --settle-budget)"
	case d.RerunCommand != "":
		return "settle with more runs (evalgate check --settle re-runs the items that carried it)"
	}
	return "settle with more runs of the items that carried it"
}

// newlyFailing is the headline's count of newly failing items, " (3 items newly fail)",
// or "" when none does or nothing was compared.
func (r *Report) newlyFailing() string {
	switch n := r.FailingTotal(); {
	case r.Comparison == nil || n == 0:
		return ""
	case n == 1:
		return " (1 item newly fails)"
	default:
		return fmt.Sprintf(" (%d items newly fail)", n)
	}
}

// itemCount is "1 item" or "3 items".
func itemCount(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}

// scoreLine is the score against the baseline and the pass rate, in whole items: the
// line under the headline. Intervals and p-values are in the statistics section.
func (r *Report) scoreLine() string {
	s := fmt.Sprintf("score %.3f", r.Summary.Mean)
	if c := r.Comparison; c != nil {
		s += fmt.Sprintf(" · baseline %.3f · Δ %s", c.Base, gate.FormatDelta(c.Delta, c.RelDelta, r.Mode))
	}
	scored := r.Summary.Items - len(r.Summary.Pending)
	s += fmt.Sprintf(" · %d of %d items pass", r.Summary.Passed, scored)
	if r.Summary.Runs > 1 {
		s += fmt.Sprintf(" (in at least half of %d runs)", r.Summary.Runs)
	}
	if n := len(r.Summary.Pending); n > 0 {
		s += fmt.Sprintf(" · %d pending", n)
	}
	if n := len(r.Summary.Missing); n > 0 {
		s += fmt.Sprintf(" · %d missing", n)
	}
	if n := r.Summary.JudgeErrors; n > 0 {
		s += fmt.Sprintf(" · %d judge error(s)", n)
	}
	return s
}
