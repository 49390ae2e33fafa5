package report

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/stats"
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
		out = append(out, fmt.Sprintf("Evidence model: %d items; baseline predicts %.3f, candidate %.3f; precision-weighted z = %.2f (skew %.2f, p = %.3g), unweighted z = %.2f (skew %.2f, p = %.3g); p = min(p_w/%.2g, p_u/%.2g)",
			ev.Items, ev.PredictedMean, ev.CandMean, ev.Z, ev.Skew, ev.PW, ev.ZU, ev.SkewU, ev.PU, 1-ev.UnweightedShare, ev.UnweightedShare))
		if ev.DF > 0 {
			out[len(out)-1] += fmt.Sprintf("; each p is at least the run-level guard's (p_u's %.3g times), the statistic read against the runs' own spread (Student's t, %g df)", stats.GuardFactor, ev.DF)
		}
		switch {
		case ev.PThin > 0 && ev.DF == 0:
			out[len(out)-1] += fmt.Sprintf("; with one run on each side nothing measures run-level noise, so a first look also reads it at the %g %% upper bound of runs that spread as their items predict: p = %.3g", 100*(1-ev.ThinGamma), ev.PThin)
		case ev.PThin > 0:
			out[len(out)-1] += fmt.Sprintf("; a first look on so few runs also reads the run-level noise at its %g %% upper bound: p = %.3g", 100*(1-ev.ThinGamma), ev.PThin)
		}
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

// statPart is one part of the statistics section: it writes its markdown (escaped) and
// names, in a few words, what it adds to the section's one-line summary ("" when it
// has nothing to say).
type statPart func(r *Report, b *strings.Builder) (summary string)

// statParts are the statistics section's parts, in order. Every interval, p-value,
// resolving power and evidence figure of the comment is written by one of them and
// nowhere else: a new statistic is one more part here.
var statParts = []statPart{
	(*Report).statLines,
	(*Report).statRepeatability,
	(*Report).statDimensions,
	(*Report).statEvidence,
}

// mdStatistics is the one collapsed <details> that holds the statistics; its summary
// says in one line what it holds.
func (r *Report) mdStatistics(MarkdownOptions) []block {
	var body strings.Builder
	var what []string
	for _, p := range statParts {
		if s := p(r, &body); s != "" {
			what = append(what, s)
		}
	}
	if len(what) == 0 {
		return nil
	}
	text := fmt.Sprintf("\n<details><summary>%s: %s</summary>\n\n%s</details>\n", statisticsTitle, strings.Join(what, ", "), body.String())
	return []block{{text: text, cut: cutStatistics, name: "The statistics"}}
}

// statLines: the decision's test, the interval and p-value of Δ, the evidence model
// and the resolving power (statisticsLines).
func (r *Report) statLines(b *strings.Builder) string {
	lines := r.statisticsLines()
	if len(lines) == 0 {
		return ""
	}
	for _, l := range lines {
		fmt.Fprintf(b, "- %s\n", codeSpans(l))
	}
	b.WriteString("\n")
	what := "the test that decided, the 95% interval and p-value of Δ"
	if r.Regression != nil && r.Regression.Power != nil {
		what += ", resolving power"
	}
	return what
}

// statRepeatability: the spread over several runs and what the pass rate means then.
func (r *Report) statRepeatability(b *strings.Builder) string {
	rep := r.repeatability()
	if rep == "" {
		return ""
	}
	fmt.Fprintf(b, "%s · pass rate %.1f%% (the mean of the runs' pass rates, which pass_rate gates use)\n\n", Escape(rep), 100*r.Summary.PassRate)
	return "the spread over runs"
}

// dimensionIntervals is the terminal's line of each dimension's change with its 95 %
// interval (the markdown's statDimensions table), kept out of the breakdown table so
// that the statistics stand in one section.
func (r *Report) dimensionIntervals() []string {
	if r.Comparison == nil {
		return nil
	}
	var parts []string
	for _, d := range r.dimensionRows(statusIcon) {
		if d.name != "score" && d.delta != "" && d.delta != "n/a" {
			parts = append(parts, d.name+" "+d.delta)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"Per dimension, Δ with its paired per-item 95 % interval: " + strings.Join(parts, "; ")}
}

// statDimensions: each dimension's change with its 95 % interval.
func (r *Report) statDimensions(b *strings.Builder) string {
	if r.Comparison == nil {
		return ""
	}
	var rows [][]string
	for _, d := range r.dimensionRows(statusIcon) {
		name := "`" + strings.ReplaceAll(d.name, "`", "'") + "`"
		if d.name == "score" {
			name = "**score**"
		}
		rows = append(rows, []string{name, d.delta})
	}
	mdTable(b, []string{"Dimension", "Δ (95% CI)"}, rows)
	b.WriteString("\n")
	return "per dimension"
}

// statEvidence: the items that carried the decision.
func (r *Report) statEvidence(b *strings.Builder) string {
	d := r.Regression
	if d == nil || len(d.Evidence) == 0 {
		return ""
	}
	fmt.Fprintf(b, "Evidence: the items that carried the decision (%d)\n\n", len(d.Evidence))
	var rows [][]string
	for _, e := range d.Evidence {
		rows = append(rows, []string{CodeCell(e.ID, 60), fmt.Sprintf("%.3f (%s)", e.BaseScore, runs(e.BaseRuns)),
			fmt.Sprintf("%.3f", e.Predicted), fmt.Sprintf("%.3f (%s)", e.CandScore, runs(e.CandRuns)), fmt.Sprintf("%.1f", e.Z)})
	}
	mdTable(b, []string{"Item", "Baseline", "Expected", "PR", "z"}, rows)
	b.WriteString("\n")
	return fmt.Sprintf("the evidence (%s)", itemCount(len(d.Evidence)))
}
