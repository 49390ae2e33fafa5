package report

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/gate"
)

// The report states one figure in its headline: the one that decided, with its
// threshold (gate's shortDecidedBy, in the verdict's reason). Every other statistic
// goes in one statistics section, each labelled for what it is: the decision's interval
// and test, the plain bootstrap interval of Δ (which decided nothing under the evidence
// method), the resolving power, and what the evidence model fitted. Renderers place the
// section; this file owns its content.

// statisticsTitle heads the statistics section in every format.
const statisticsTitle = "Statistics"

// statisticsLines are the statistics section's lines, or nil with no comparison.
func (r *Report) statisticsLines() []string {
	d, c := r.Regression, r.Comparison
	if d == nil || c == nil {
		return nil
	}
	out := []string{"Regression (" + d.Method + "): " + d.DecidedBy}
	if ev := c.Evidence; d.Method == gate.MethodEvidence && ev.Items > 0 {
		s := fmt.Sprintf("Evidence model: %d items; baseline predicts %.3f, candidate %.3f; precision-weighted z = %.2f (skew %.2f)",
			ev.Items, ev.PredictedMean, ev.CandMean, ev.Z, ev.Skew)
		if ev.ChangeItems > 0 {
			s += fmt.Sprintf("; change model on %d items: %.1f %% changed on their own, suite-wide drift %s",
				ev.ChangeItems, 100*ev.ChangedShare, gate.FormatPts(-ev.Drift))
		}
		out = append(out, s)
	}
	out = append(out, fmt.Sprintf("Observed Δ %s: paired per-item bootstrap 95 %% interval [%s, %s], two-sided sign-flip p = %s (describes Δ; %s)",
		gate.FormatDelta(c.Delta, c.RelDelta, r.Mode), gate.FormatPts(c.CI.Lo), gate.FormatPts(c.CI.Hi), fmt.Sprintf("%.3g", c.PValue), decidingWord(d)))
	if d.Power != nil {
		out = append(out, "Resolving power: "+d.Power.Text)
	}
	return out
}

// decidingWord says whether the bootstrap interval of Δ is what decided.
func decidingWord(d *gate.RegressionDecision) string {
	if d.Method == gate.MethodEvidence {
		return "the estimated drop above decided"
	}
	return "the " + d.Method + " method decided on it"
}

// mdStatistics is the statistics section as a collapsed <details> block.
func (r *Report) mdStatistics() string {
	lines := r.statisticsLines()
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n", statisticsTitle)
	for _, l := range lines {
		fmt.Fprintf(&b, "- %s\n", codeSpans(l))
	}
	b.WriteString("\n</details>\n\n")
	return b.String()
}
