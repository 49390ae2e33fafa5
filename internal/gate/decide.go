package gate

import (
	"fmt"
	"math"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/stats"
)

// Decide applies the regression rule to a comparison: the score's decision, with one
// per configured dimension in Dimensions. It is the only place a regression is decided.
// Its tests run at level Alpha; DecideAt runs them at another level.
func (r *Regression) Decide(cmp *baseline.Comparison) *RegressionDecision {
	return r.DecideAt(cmp, Alpha)
}

// DecideAt is Decide with the tests at level alpha in (0, 1): the evidence method
// rejects "no drop" when p < alpha, the significance method when the drop's p-value,
// read from its interval, is below alpha/2 (at alpha = Alpha, exactly when the 95 %
// interval lies wholly below 0). A sequential procedure that looks at the same
// comparison several times (settling an inconclusive verdict with re-runs) spends its
// overall level across the looks and decides each look at its share. plain has no test
// and ignores alpha. An alpha outside (0, 1) is taken as Alpha.
func (r *Regression) DecideAt(cmp *baseline.Comparison, alpha float64) *RegressionDecision {
	if !(alpha > 0 && alpha < 1) {
		alpha = Alpha
	}
	d := r.decideOne("regression", *r.MaxDrop, r.Mode, alpha, measured{
		base: cmp.Base, delta: cmp.Delta, relDelta: cmp.RelDelta, ci: cmp.CI,
		ev: &cmp.Evidence, evidence: cmp.EvidenceItems,
	})
	d.Power = r.power(cmp)
	for _, dd := range cmp.Dimensions {
		maxDrop, ok := r.Dimensions[dd.Name]
		if !ok || dd.NA {
			continue // n/a on every compared item: nothing to decide
		}
		rel := 0.0
		if dd.Base != 0 {
			rel = dd.Delta / dd.Base
		}
		m := measured{base: dd.Base, delta: dd.Delta, relDelta: rel, ev: dd.Evidence, evidence: dd.EvidenceItems}
		if dd.CI != nil {
			m.ci = *dd.CI
		}
		// Per-dimension max drops are absolute points of the dimension's mean.
		d.Dimensions = append(d.Dimensions, r.decideOne("regression: "+dd.Name, maxDrop, Absolute, alpha, m))
	}
	r.applyJudgeNoise(&d, cmp)
	return &d
}

// measured is what one decision reads from the comparison.
type measured struct {
	base, delta, relDelta float64
	ci                    stats.Interval // of the mean paired difference, cand − base
	ev                    *stats.EvidenceResult
	evidence              []baseline.EvidenceItem
}

func (r *Regression) decideOne(name string, maxDrop float64, mode string, alpha float64, m measured) RegressionDecision {
	d := RegressionDecision{Gate: name, Method: r.Method, Mode: mode, Unit: Unit(mode), Threshold: maxDrop, Alpha: alpha}
	if r.Notice != "" {
		d.RequestedMethod, d.Notice = MethodStable, r.Notice
	}
	method := r.Method
	if method == MethodEvidence && m.ev == nil {
		method = MethodSignificance // no per-item measurement (cannot happen for the score)
		d.Method = method
	}
	inUnit := func(drop float64) float64 { // an absolute drop in the mode's unit
		if mode == Relative {
			if m.base == 0 {
				return 0
			}
			return drop / m.base
		}
		return drop
	}
	switch method {
	case MethodEvidence:
		ev := m.ev
		d.Statistic = "estimated drop"
		base := m.base
		if mode == Relative {
			base = ev.PredictedMean
		}
		d.Value = relOr(ev.Drop, base, mode)
		half := ev.HalfWidth95()
		d.Interval = stats.Interval{Lo: relOr(ev.Drop-half, base, mode), Hi: relOr(ev.Drop+half, base, mode), Level: 0.95}
		p := ev.PValue
		d.PValue = &p
		d.Rejects = p < alpha // the p-value is the one figure the test is read from and printed as
		d.ItemRejects = !d.Rejects && ev.PItem > 0 && ev.PItem < alpha
		d.Evidence = m.evidence
	default:
		d.Statistic = "drop"
		d.Value = inUnit(-m.delta)
		d.Interval = stats.Interval{Lo: inUnit(-m.ci.Hi), Hi: inUnit(-m.ci.Lo), Level: m.ci.Level}
		d.Rejects = true
		if method == MethodSignificance {
			p := oneSidedFromCI(m.ci)
			d.PValue = &p
			d.Rejects = significant(m.ci.Hi, p, alpha)
		}
	}
	if mode == Relative && m.base == 0 {
		d.Value, d.Interval = 0, stats.Interval{Level: d.Interval.Level}
	}
	d.Exceeded = DropExceeds(d.Value, maxDrop)
	d.Observed = inUnit(-m.delta) + 0 // + 0: no "-0" in the JSON
	if mode == Relative && m.base == 0 {
		d.Observed = 0
	}
	switch {
	case d.Exceeded && d.Rejects && method == MethodEvidence && m.ev.PThin >= alpha:
		d.Outcome, d.ThinRuns = Inconclusive, true
	case d.Exceeded && d.Rejects:
		d.Outcome = Fail
		d.Unreplicated = method == MethodEvidence && m.ev.PThin > 0 && m.ev.Replication == nil
	case d.Exceeded, maybeOver(d, method):
		d.Outcome = Inconclusive
	default:
		d.Outcome = Pass
	}
	d.FewRunDF = d.Outcome == Inconclusive && d.ItemRejects && m.ev != nil && m.ev.DF > 0 && m.ev.DF < FewRunDF
	switch d.Outcome {
	case Pass:
		if method == MethodEvidence && m.ev.PItem > 0 && m.ev.PItem < UnsureP && DropExceeds(d.Interval.Hi, d.Threshold) {
			d.Unsure = true
			d.Recheck = d.Evidence
		}
		d.Evidence = nil
	case Fail:
		// A block names the items that carried it: those clearly below their
		// prediction. An inconclusive result names every item that pulled toward a
		// drop, strongest first: re-running them is what settles it.
		var strong []baseline.EvidenceItem
		for _, e := range d.Evidence {
			if e.Z >= MinEvidenceZ {
				strong = append(strong, e)
			}
		}
		if len(strong) > 0 {
			d.Evidence = strong
		}
	}
	d.DecidedBy = decidedBy(d)
	return d
}

// maybeOver says a decision under max_drop is a drop whose size is unsure on the pass
// side: the evidence test rejects "no drop" (or the items alone do, where the run-level
// guard holds it back) while the estimate's interval reaches over max_drop. A pass
// there would stand on an estimate the noise of one run can pull under max_drop (a
// break of stable items read beside flaky items that ran high); inconclusive instead,
// so that settle re-runs the items that carried it and the items whose noise the
// estimate carries, and the re-runs tell a break from a bad run.
func maybeOver(d RegressionDecision, method string) bool {
	return method == MethodEvidence && !d.Exceeded && (d.Rejects || d.ItemRejects) && DropExceeds(d.Interval.Hi, d.Threshold)
}

// UnsureP is the items' p-value (stats.EvidenceResult.PItem) under which a pass whose
// interval reaches over max_drop is Unsure: one candidate run of a break of stable
// items beside flaky items that ran high can read as a pass whose items point at a
// drop without proving it (p_item 0.07–0.15 at 200 items, where a 4-pt break hides in
// the flaky items' noise); settle re-runs those items once before the pass stands.
const UnsureP = 0.2

// MinEvidenceZ is how far below its prediction an item must fall, in predicted
// standard deviations, to be named as the evidence of a block: items closer are within
// their noise.
const MinEvidenceZ = 2

// relOr is an absolute drop in the mode's unit, relative to base in relative mode.
func relOr(drop, base float64, mode string) float64 {
	if mode != Relative {
		return drop
	}
	if base == 0 {
		return 0
	}
	return drop / base
}

// oneSidedFromCI is the p-value the significance method reports for "no drop", from
// the 95 % interval of Δ = cand − base read as a normal one: Φ(mid/se), with mid the
// interval's middle and se its half-width over 1.96. A clear drop (the interval far
// below 0) gives p near 0; Δ near 0 gives p near 0.5.
func oneSidedFromCI(ci stats.Interval) float64 {
	mid, half := (ci.Lo+ci.Hi)/2, (ci.Hi-ci.Lo)/2
	if half <= 0 {
		if mid < 0 {
			return 0
		}
		return 1
	}
	se := half / stats.Z95
	return 0.5 * math.Erfc(-mid/se/math.Sqrt2)
}

// significant is the significance method's test at level alpha: the 95 % interval's
// upper end hi below 0 at the default level, p < alpha/2 at any other (the two-sided
// interval at 1 − alpha lying below 0).
func significant(hi, p, alpha float64) bool {
	if alpha == Alpha {
		return hi < 0
	}
	return p < alpha/2
}

// decidedBy is the full line that says what decided: the figure, its threshold, the
// test and the evidence items (the report's statistics section and the JSON's
// decided_by).
func decidedBy(d RegressionDecision) string {
	var b strings.Builder
	b.WriteString(figureVsThreshold(d))
	fmt.Fprintf(&b, " (95%% interval %s to %s", FormatDrop2(d.Interval.Lo, d.Mode), FormatDrop2(d.Interval.Hi, d.Mode))
	if d.PValue != nil {
		b.WriteString("; one-sided " + pVersusAlpha(d))
	}
	b.WriteString(")")
	switch d.Outcome {
	case Inconclusive:
		switch {
		case d.ThinRuns:
			b.WriteString(": over max_drop and beyond the suite's noise, but one look at so few runs cannot tell it from a run that was bad as a whole: re-running the items that carried it (settle), or more runs of the pull request, decides")
		case d.Exceeded && d.FewRunDF:
			b.WriteString(": over max_drop and beyond the items' noise, but the runs' own spread is known to too few degrees of freedom to tell it from one bad run: more runs decide (settle's re-runs, the suite's history, or more runs of the pull request)")
		case d.Exceeded:
			b.WriteString(": over max_drop, but within the suite's noise")
		case d.Rejects:
			b.WriteString(": a drop beyond the suite's noise, its size unsure: the interval reaches over max_drop")
		default:
			b.WriteString(": a drop beyond the items' noise that a shift shared by a whole run could explain, its size unsure: the interval reaches over max_drop")
		}
	case Fail:
		if d.PValue != nil {
			b.WriteString(": over max_drop, and beyond the suite's noise")
		}
		if d.Unreplicated {
			b.WriteString("; it stands on one look at so few runs: with --settle its items are re-run once before the block stands")
		}
	case Pass:
		if d.Statistic != "drop" && DropExceeds(d.Observed, d.Threshold) {
			obs, thr := FormatComparison(d.Observed, d.Threshold, true, d.Mode)
			fmt.Fprintf(&b, ": the observed drop %s is over max_drop %s, but the estimate puts the true drop under it", obs, thr)
		}
		if d.Unsure {
			b.WriteString("; the items alone lean toward a drop the interval cannot rule out: with --settle they are re-run once before the pass stands")
		}
	}
	b.WriteString(evidenceList(d))
	return b.String()
}

// FewRunDF is the run-level guard's degrees of freedom under which an inconclusive
// verdict the items alone would block is read as one on too few runs
// (RegressionDecision.FewRunDF): Student's t on 8 needs 2.31 at 2.5 %, within a fifth
// of the normal's 1.96; on 2 it needs 4.30.
const FewRunDF = 8

// figureVsThreshold is "decided by estimated drop 3.1 pts > 2.0 pts", printed at a
// precision where the relation reads true.
func figureVsThreshold(d RegressionDecision) string {
	op := "≤"
	if d.Exceeded {
		op = ">"
	}
	v, t := FormatComparison(d.Value, d.Threshold, d.Exceeded, d.Mode)
	return fmt.Sprintf("decided by %s %s %s %s", d.Statistic, v, op, t)
}

// pVersusAlpha is "p = 0.012 < 0.05" when the p-value decided (evidence), or the p-value
// alone when an interval decided and the two disagree at the edge (significance).
func pVersusAlpha(d RegressionDecision) string {
	p := *d.PValue
	if (p < d.Alpha) != d.Rejects {
		return FormatPValue(p, d.Alpha, p < d.Alpha)
	}
	rel := "<"
	if !d.Rejects {
		rel = "≥"
	}
	return fmt.Sprintf("%s %s %g", FormatPValue(p, d.Alpha, d.Rejects), rel, d.Alpha)
}

// evidenceList is "; evidence: q1, q2", or nothing. A backtick in an id is written
// \x60: renderers read backticked parts of a decision's text as code spans.
func evidenceList(d RegressionDecision) string {
	if len(d.Evidence) == 0 {
		return ""
	}
	ids := make([]string, 0, len(d.Evidence))
	for _, e := range d.Evidence {
		ids = append(ids, strings.ReplaceAll(e.ID, "`", `\x60`))
	}
	return "; evidence: " + strings.Join(ids, ", ")
}

// shortDecidedBy is the decision in a few words, for the headline and the gate table:
// the figure, its threshold and the evidence items.
func shortDecidedBy(d RegressionDecision) string {
	s := figureVsThreshold(d)
	switch {
	case d.Outcome == Inconclusive && (d.ThinRuns || d.Exceeded && d.FewRunDF):
		s += ", on too few runs to tell from noise"
	case d.Outcome == Inconclusive && d.Exceeded:
		s += ", within the suite's noise"
	case d.Outcome == Inconclusive:
		s += ", a drop that may be over max_drop"
	}
	return s + evidenceList(d)
}

// FormatDrop2 prints a drop (or any figure in the mode's unit) with one decimal and
// the unit, keeping its sign: "3.1 pts", "−0.4 %".
func FormatDrop2(x float64, mode string) string {
	return strings.TrimPrefix(signed(x*100, 1), "+") + " " + Unit(mode)
}

// regressionResults are the regression gate's rows in the gate table: the score's and
// each dimension's.
func regressionResults(rg *Regression, cmp *baseline.Comparison, d *RegressionDecision) []Result {
	if rg.Disabled {
		return nil
	}
	r := Result{Name: "regression", Kind: KindRegression, Level: rg.Level, Metric: rubric.MetricMeanScore, Op: "drop <=", Threshold: *rg.MaxDrop}
	if cmp == nil || d == nil {
		r.Status = Skipped
		r.Message = "no baseline: nothing to compare with"
		return []Result{r}
	}
	out := []Result{decisionResult(r, rg, *d, fmt.Sprintf("Δ %s, %s → %s", FormatDelta(cmp.Delta, cmp.RelDelta, rg.Mode), fmtScore(cmp.Base), fmtScore(cmp.Cand)))}
	for _, dd := range d.Dimensions {
		dim := strings.TrimPrefix(dd.Gate, "regression: ")
		dr := Result{Name: dd.Gate, Kind: KindRegression, Level: rg.Level, Metric: rubric.DimensionMetric(dim, rubric.SuffixScore), Op: "drop <=", Threshold: dd.Threshold}
		var delta float64
		for _, c := range cmp.Dimensions {
			if c.Name == dim {
				delta = c.Delta
			}
		}
		out = append(out, decisionResult(dr, rg, dd, fmt.Sprintf("%s Δ %s", dim, FormatPts(delta))))
	}
	return out
}

// decisionResult fills a gate row from a decision: its status by the gate's level, and
// a message that always carries the deciding figure.
func decisionResult(r Result, rg *Regression, d RegressionDecision, delta string) Result {
	v := d.Value
	r.Actual = &v
	switch d.Outcome {
	case Fail:
		r.Status = failOrWarn(rg.Level)
	case Inconclusive:
		r.Status = Inconclusive
	default:
		r.Status = Pass
	}
	r.DecidedBy = d.DecidedBy
	r.Message = shortDecidedBy(d) + " (" + delta + ")"
	return r
}

// Compare is the verdict on a comparison alone, with no scores to gate (evalgate
// compare): the regression gate decides it, at its level.
func (r *Regression) Compare(cmp *baseline.Comparison) *Verdict {
	v := &Verdict{Regression: r.Decide(cmp)}
	v.Gates = regressionResults(r, cmp, v.Regression)
	v.decide(r)
	return v
}
