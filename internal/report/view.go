package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/settle"
)

// MaxListedItems caps the item lists in rendered reports; the rest are counted.
const MaxListedItems = 20

// icons marks statuses: emoji in markdown, single-width marks in a terminal (emoji
// such as ⚠️ are two columns wide there but counted as one, which breaks table borders).
type icons func(status gate.Status) string

// termIcon is the terminal's mark of a gate or verdict status.
func termIcon(s gate.Status) string {
	switch s {
	case gate.Pass:
		return "✓"
	case gate.Warn:
		return "!"
	case gate.Inconclusive:
		return "?"
	case gate.Fail:
		return "✗"
	case gate.Accepted:
		return "~"
	}
	return "-"
}

// statusIcon is the markdown mark of a gate or verdict status.
func statusIcon(s gate.Status) string {
	switch s {
	case gate.Pass:
		return "✅"
	case gate.Warn:
		return "⚠️"
	case gate.Inconclusive:
		return "❔"
	case gate.Fail:
		return "❌"
	case gate.Accepted:
		return "☑️"
	}
	return "➖"
}

func statusWord(s gate.Status) string { return string(s) }

// dimRow is one line of the breakdown table.
type dimRow struct {
	name, weight, base, cand, status string
	change                           string // the change alone: "−5.0 pts"
	delta                            string // the change with its 95 % interval (statistics only)
}

// dimensionRows builds the breakdown table, with baseline columns when compared.
func (r *Report) dimensionRows(icon icons) []dimRow {
	var rows []dimRow
	for i, d := range r.Dimensions {
		row := dimRow{name: d.Name, weight: fmt.Sprintf("%.2f", d.Weight), cand: fmt.Sprintf("%.3f", d.Mean), status: icon(gate.Pass)}
		if d.NA {
			row.cand = "n/a" // the JSON report's applicable_items says over how many items the others are
		}
		if n := wholeItems(d.Failures); n > 0 {
			row.status = fmt.Sprintf("%d failing", n)
		}
		if c := r.Comparison; c != nil && i < len(c.Dimensions) {
			dd := c.Dimensions[i]
			// The change against the baseline, in whole items, so an unchanged count does
			// not read as a regression: "2 failing, ±0".
			if bf := dd.BaseFailures; bf != nil && (wholeItems(d.Failures) > 0 || wholeItems(*bf) > 0) {
				n := wholeItems(d.Failures)
				row.status = fmt.Sprintf("%d failing, %s", n, signedCount(n-wholeItems(*bf)))
				if n == 0 { // none fails now: "✅ 1 fixed", not "0 failing, −1"
					row.status = fmt.Sprintf("%s %d fixed", icon(gate.Pass), wholeItems(*bf))
				}
			}
			// Both columns and the change are the comparison's: over the compared items
			// the dimension applies to on both sides, which the report's mean (over the
			// runs' means) need not be when it is n/a on some.
			row.base = fmt.Sprintf("%.3f", dd.Base)
			if !d.NA {
				row.cand = fmt.Sprintf("%.3f", dd.Cand)
			}
			row.change = gate.FormatPts(dd.Delta)
			row.delta = row.change
			if dd.CI != nil {
				row.delta = deltaCI(dd.Delta, dd.CI.Lo, dd.CI.Hi)
			}
			if dd.NA {
				row.base, row.change, row.delta = "n/a", "n/a", "n/a"
			}
			if dec := r.decision("regression: " + d.Name); dec != nil && dec.Outcome != gate.Pass {
				row.status = icon(dec.Outcome) + " " + row.status
			}
		}
		rows = append(rows, row)
	}
	total := dimRow{name: "score", weight: "1.00", cand: fmt.Sprintf("%.3f", r.Summary.Mean), status: icon(r.Verdict.Status)}
	if r.Summary.Runs > 1 {
		total.cand += fmt.Sprintf(" ± %.3f", r.Summary.Std)
	}
	if c := r.Comparison; c != nil {
		total.base = fmt.Sprintf("%.3f", c.Base)
		total.change = gate.FormatPts(c.Delta)
		total.delta = deltaCI(c.Delta, c.CI.Lo, c.CI.Hi)
	}
	return append(rows, total)
}

// deltaCI prints a change with its 95 % interval, "−5.0 pts [−15.0, ±0.0 pts]", or the
// change alone when the interval is that one point (nothing moved).
func deltaCI(delta, lo, hi float64) string {
	d, l, h := gate.FormatPts(delta), gate.FormatPts(lo), gate.FormatPts(hi)
	if l == d && h == d {
		return d
	}
	return fmt.Sprintf("%s [%s, %s]", d, trimPts(l), h)
}

// wholeItems is a failure count (a mean over runs) as whole items: the nearest whole
// number, so three runs failing 1, 1 and 0 times read "1 failing", not "0.6667".
func wholeItems(x float64) int { return int(math.Round(x)) }

// signedCount prints a change in a count of items with its sign: "+2", "−1", "±0".
func signedCount(n int) string {
	switch {
	case n == 0:
		return "±0"
	case n < 0:
		return fmt.Sprintf("−%d", -n)
	}
	return fmt.Sprintf("+%d", n)
}

func trimPts(s string) string { return s[:len(s)-len(" pts")] }

// gateRow is one line of the gate table. name is what the table prints (the gate and
// its metric); gateName is the gate's own name.
type gateRow struct {
	name, gateName, kind, threshold, actual, status, message string
}

func (r *Report) gateRows(icon icons) []gateRow {
	var rows []gateRow
	for _, g := range r.Gates {
		row := gateRow{name: g.Name, gateName: g.Name, kind: g.Kind, status: icon(g.Status) + " " + statusWord(g.Status), message: g.Message}
		switch {
		case g.Kind == gate.KindRegression:
			mode := r.Mode
			if mode == "" {
				mode = gate.Absolute
			}
			if g.Name != "regression" {
				mode = gate.Absolute // per-dimension max drops are absolute points
			}
			row.threshold = "drop ≤ " + gate.FormatDrop(g.Threshold, mode)
			if g.Actual != nil {
				row.actual, row.threshold = r.decisionActual(g.Name, *g.Actual, mode, row.threshold)
			} else {
				row.actual = "no baseline"
			}
		default:
			// Name the metric and print its unit: "p50 latency (latency_e2e_p50_ms)",
			// "≤ 250 ms"; rates as percentages.
			unit := rubric.MetricUnit(g.Metric)
			if g.Metric != "" && g.Metric != g.Name {
				row.name = fmt.Sprintf("%s (%s)", g.Name, g.Metric)
			}
			row.threshold = fmt.Sprintf("%s %s", opSign(g.Op), rubric.FormatMetric(g.Threshold, unit))
			if g.Op == gate.OpIncrease { // a relative change, whatever the metric's unit
				row.threshold = "increase ≤ " + gate.FormatChange(g.Threshold)
			}
			if g.Actual != nil {
				row.actual = rubric.FormatMetric(*g.Actual, unit)
				if counts := r.runCounts(g.Metric, *g.Actual); unit == rubric.UnitItems && counts != "" {
					row.actual += " a run (runs: " + counts + ")" // whole items, not "0.3333 ± 0.5774"
				} else if g.Std > 0 {
					row.actual += fmt.Sprintf(" ± %s", rubric.FormatMetric(g.Std, unit))
				}
				if ch := gate.ChangeText(g.Change, g.ChangeInfinite); ch != "" {
					row.actual += " (" + ch + ")"
				} else if c := r.Comparison; c != nil && g.Metric == rubric.MetricMeanScore {
					// The score against the baseline, a rise as "+2.5 pts": never the
					// bare figure, which hides whether the score rose or fell.
					row.actual += " (Δ " + gate.FormatPts(c.Delta) + ")"
				}
				row.actual = estimatedActual(row.actual, g.Estimated)
			} else if g.Op == gate.OpIncrease && g.Status == gate.Skipped {
				row.actual = "no baseline figure" // the run's figure is there; the baseline's is not
			} else {
				row.actual = "no data"
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// runCounts lists a count metric's value in each run, "0, 1, 0", when the report has
// several runs, at most maxListedRuns, whose mean is the gate's figure mean ("" else).
func (r *Report) runCounts(metric string, mean float64) string {
	if len(r.Runs) < 2 || len(r.Runs) > maxListedRuns || len(r.Runs) != r.Summary.Runs {
		return ""
	}
	var parts []string
	sum := 0.0
	for _, run := range r.Runs {
		v, ok := run.Metrics[metric]
		if !ok || v != math.Trunc(v) {
			return ""
		}
		sum += v
		parts = append(parts, fmt.Sprintf("%d", int64(v)))
	}
	if math.Abs(sum/float64(len(r.Runs))-mean) > 1e-6 {
		return ""
	}
	return strings.Join(parts, ", ")
}

// maxListedRuns is how many runs' counts a gate's figure lists.
const maxListedRuns = 10

// num prints a number without float noise (rubric.FormatMetric owns the format).
func num(x float64) string { return rubric.FormatMetric(x, rubric.UnitScore) }

// gradeLine names the grade and both versions.
func (r *Report) gradeLine() string {
	s := ""
	if g := r.Grade; g != nil {
		s = "grade " + g.Grade
		if g.RawGrade != "" && g.RawGrade != g.Grade {
			s += fmt.Sprintf(" (raw %s, trimmed to tier %s)", g.RawGrade, g.Tier)
		}
		if g.VetoedBy != "" {
			s += " (vetoed by " + g.VetoedBy + ")"
		}
		if g.Basis == "native" {
			s += fmt.Sprintf(" · mean %.2f of 5", g.Mean)
		}
		s += " · "
	}
	return s + r.ScoringSystem + " · " + r.GradingSystem
}

// Failing lists the failing items (newly failing when compared).
func (r *Report) Failing() (title string, items []Item) {
	if c := r.Comparison; c != nil {
		byID := map[string]Item{}
		for _, it := range r.Items {
			byID[it.ID] = it
		}
		for _, ch := range c.NewlyFailing {
			if it, ok := byID[ch.ID]; ok { // a large suite keeps only its worst items
				items = append(items, it)
			}
		}
		return "Newly failing items", items
	}
	for _, it := range r.Items {
		if !it.Pass && !it.Pending { // pending items are listed apart (PendingTitle)
			items = append(items, it)
		}
	}
	return "Failing items", items
}

// FailingTotal is how many items Failing's list would hold if every item were kept: a
// large streamed suite keeps only its worst failing items in memory, and the lists'
// headings give the total.
func (r *Report) FailingTotal() int {
	if c := r.Comparison; c != nil {
		return c.NumNewlyFailing()
	}
	return max(r.Summary.Items-r.Summary.Passed-len(r.Summary.Pending), 0)
}

// PendingTitle heads the list of pending items (r.Summary.Pending): neither passing
// nor failing, so listed apart from the failing ones.
func (r *Report) PendingTitle() string {
	return fmt.Sprintf("Pending items (%d): every value n/a or stale, left out of the means and the pass rate", len(r.Summary.Pending))
}

// summaryLine is the score, spread, pass rate and size.
func (r *Report) summaryLine() string {
	s := fmt.Sprintf("score %.3f", r.Summary.Mean)
	if r.Summary.Runs > 1 {
		s += fmt.Sprintf(" ± %.3f (std over %d runs)", r.Summary.Std, r.Summary.Runs)
	}
	if c := r.Comparison; c != nil {
		s += fmt.Sprintf(" · baseline %.3f · Δ %s", c.Base, gate.FormatDelta(c.Delta, c.RelDelta, r.Mode))
	}
	scored := r.Summary.Items - len(r.Summary.Pending)
	if r.Summary.Runs > 1 {
		// Two rates: say which one pass_rate gates read.
		s += fmt.Sprintf(" · pass rate %.1f%% (the mean of the %d runs' pass rates, which pass_rate gates use) · %d/%d items pass in at least half the runs",
			100*r.Summary.PassRate, r.Summary.Runs, r.Summary.Passed, scored)
	} else {
		s += fmt.Sprintf(" · pass rate %.1f%% (%d/%d)", 100*r.Summary.PassRate, r.Summary.Passed, scored)
	}
	if n := len(r.Summary.Pending); n > 0 {
		s += fmt.Sprintf(" · %d pending", n)
	}
	if n := len(r.Summary.Missing); n > 0 {
		s += fmt.Sprintf(" · %d missing", n)
	}
	if r.Summary.JudgeErrors > 0 {
		s += fmt.Sprintf(" · %d judge error(s)", r.Summary.JudgeErrors)
	}
	return s
}

// opSign prints a gate's comparison as a person writes it.
func opSign(op string) string {
	switch op {
	case ">=":
		return "≥"
	case "<=":
		return "≤"
	}
	return op
}

// tagRows are per-tag baseline and PR means, when compared.
func (r *Report) tagRows() [][]string {
	if r.Comparison == nil {
		return nil
	}
	var rows [][]string
	for _, t := range r.Comparison.Tags {
		rows = append(rows, []string{t.Name, fmt.Sprint(t.Items), fmt.Sprintf("%.3f", t.Base), fmt.Sprintf("%.3f", t.Cand), gate.FormatPts(t.Delta)})
	}
	return rows
}

// repeatability is seed 001 §4.4's line: mean ± std of the aggregate and of p95 latency.
func (r *Report) repeatability() string {
	if r.Summary.Runs < 2 {
		return ""
	}
	s := fmt.Sprintf("%d runs: aggregate %.3f ± %.3f", r.Summary.Runs, r.Summary.Mean, r.Summary.Std)
	if p95, ok := r.Summary.Metrics[rubric.MetricLatencyE2EP95]; ok {
		approx := ""
		if _, ok := r.Summary.Estimates[rubric.MetricLatencyE2EP95]; ok {
			approx = "≈"
		}
		s += fmt.Sprintf(" · latency p95 %s%s ± %s ms", approx, num(p95), num(r.Summary.MetricsStd[rubric.MetricLatencyE2EP95]))
	}
	return s
}

// Title is the check run's one line: the verdict and the reason that matters. A run
// the regression gate could not compare says so, whatever the other gates say.
func (r *Report) Title() string {
	s := fmt.Sprintf("%s %s · score %.3f", r.Verdict.Word(), r.Suite, r.Summary.Mean)
	if r.notCompared() {
		s += " · not compared: no baseline, the regression gate did not run"
	}
	if c := r.Comparison; c != nil {
		s += " (Δ " + gate.FormatPts(c.Delta) + ")"
	}
	if r.Verdict.Status != gate.Pass {
		s += ": " + r.Verdict.Reason
	}
	return Truncate(s, 250)
}

// judgeLines say what each judge cost, apart from the system under test's tokens.
func (r *Report) judgeLines() []string {
	var out []string
	for _, j := range r.Summary.Judges {
		out = append(out, fmt.Sprintf("judge %s (%s): %d request(s), %d call(s), %d from cache, %d prompt + %d completion tokens",
			j.Name, j.Model, j.Requests, j.Calls, j.CacheHits, j.PromptTokens, j.CompletionTokens))
	}
	return out
}

// decisionActual is a regression gate's "actual" cell: the figure that decided (the
// estimated drop for the evidence method), with the plain Δ beside it when they differ;
// and its "threshold" cell (threshold as given when no decision is recorded), printed at
// the figure's precision so the two cells read as the decision compared them.
func (r *Report) decisionActual(name string, value float64, mode, threshold string) (actual, limit string) {
	d := r.decision(name)
	if d == nil {
		return dropOrGain("drop", gate.FormatDrop(value, mode)), threshold
	}
	v, t := gate.FormatComparison(d.Value, d.Threshold, d.Exceeded, d.Mode)
	s := dropOrGain(d.Statistic, v)
	if name == "regression" && r.Comparison != nil && d.Statistic != "drop" {
		s += " (Δ " + gate.FormatDelta(r.Comparison.Delta, r.Comparison.RelDelta, mode) + ")"
	}
	return s, "drop ≤ " + t
}

// dropOrGain is a regression row's figure: "estimated drop 3.1 pts", or, when the
// score rose (a negative drop), the gain with its sign: "estimated gain +2.5 pts",
// never "estimated drop −2.5 pts".
func dropOrGain(statistic, value string) string {
	if gain, ok := strings.CutPrefix(value, "−"); ok {
		return strings.Replace(statistic, "drop", "gain", 1) + " +" + gain
	}
	return statistic + " " + value
}

// decision is the regression decision of the named gate, or nil.
func (r *Report) decision(name string) *gate.RegressionDecision {
	d := r.Regression
	if d == nil {
		return nil
	}
	if d.Gate == name {
		return d
	}
	for i := range d.Dimensions {
		if d.Dimensions[i].Gate == name {
			return &d.Dimensions[i]
		}
	}
	return nil
}

// decisionLines are what the report says about the regression decision under the
// headline besides its statistics (statistics.go): when the result is inconclusive,
// the command that would settle it (or, when the config cannot re-run items, what to
// do instead).
func (r *Report) decisionLines() []string {
	d := r.Regression
	if d == nil {
		return nil
	}
	var out []string
	items := evidenceNames(d.Evidence)
	switch {
	case d.Outcome != gate.Inconclusive:
	case d.RerunCommand == "":
		if d.RerunHint != "" {
			out = append(out, items+"To settle it, "+d.RerunHint)
		}
	case r.Settle != nil && r.Settle.Stop == settle.BudgetSpent:
		out = append(out, items+"The settle budget is spent: to settle it, settle again with a larger budget: `"+d.RerunCommand+"`")
	default:
		out = append(out, items+"To settle it, re-run the evidence items and check again: `"+d.RerunCommand+"`")
	}
	if c := r.Comparison; r.fewGuardDF(d) {
		out = append(out, fmt.Sprintf("The items alone show a drop (p = %.2g without the run-level guard), but the runs' own spread is known to %g degrees of freedom only, too few to tell it from one bad run: each release's baseline kept in the suite's history (`evalgate baseline` appends it to the .history.jsonl file beside the baseline; commit it) adds 2, and each run per pull request beyond the first adds 1",
			c.Evidence.PItem, c.Evidence.DF))
	}
	return out
}

// settleNamesIDs is how many evidence items the settle hint names by id.
const settleNamesIDs = 5

// evidenceNames names the items that carried a decision, the ones settling re-runs
// first, ahead of the settle hint: "Items that carried the evidence: q10, q11
// and 4 more. ", or "" when there are none. Each id is untrusted: shown (Visible),
// cut to 60 characters, a backtick written \x60 so it cannot open a code span where
// the line is rendered; the renderers escape the rest.
func evidenceNames(ev []baseline.EvidenceItem) string {
	if len(ev) == 0 {
		return ""
	}
	var ids []string
	for _, e := range ev[:min(len(ev), settleNamesIDs)] {
		ids = append(ids, strings.ReplaceAll(Visible(Truncate(e.ID, 60)), "`", `\x60`))
	}
	s := strings.Join(ids, ", ")
	if more := len(ev) - len(ids); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return "Items that carried the evidence: " + s + ". "
}

// fewGuardDF reports whether d is the score's inconclusive decision that the items
// alone would block, held back by a run-level guard of too few degrees of freedom
// (gate's FewRunDF): too few runs to tell the drop from one bad run.
func (r *Report) fewGuardDF(d *gate.RegressionDecision) bool {
	return d == r.Regression && d.FewRunDF && r.Comparison != nil
}

// fewRuns reports whether d is inconclusive over max_drop for want of runs: a thin
// first look (gate's ThinRuns) or a run-level guard of too few degrees of freedom
// (gate's FewRunDF), as gate's own wording of the decision reads it.
func (r *Report) fewRuns(d *gate.RegressionDecision) bool {
	return d.Outcome == gate.Inconclusive && (d.ThinRuns || d.Exceeded && d.FewRunDF)
}
