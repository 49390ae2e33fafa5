package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/rubric"
)

// Increase is a relative increase a gate allows, written `20%` or `0.2` in the config.
type Increase float64

// UnmarshalYAML reads `20%`, `20 %` or a fraction such as 0.2.
func (x *Increase) UnmarshalYAML(b []byte) error {
	s := strings.Trim(strings.TrimSpace(string(b)), `"'`)
	pct := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("max_increase is %q; want a percentage such as 20%% or a fraction such as 0.2", s)
	}
	if pct {
		v /= 100
	}
	*x = Increase(v)
	return nil
}

// OpIncrease is the Op of a gate on a metric's increase against the baseline.
const OpIncrease = "increase <="

// increaseGate decides a max_increase gate: the candidate's metric against the
// baseline's, (candidate − baseline) / baseline ≤ MaxIncrease. Without a baseline, or
// with one recorded before the metric existed (a baseline older than costs), the gate
// is skipped with a notice, never failed. A cost the candidate cannot price fails it
// (or warns, when soft): an unknown cost is not a cost that did not rise.
func increaseGate(g Gate, sc *rubric.Scored, cmp *baseline.Comparison) Result {
	r := Result{Name: g.Name, Kind: g.Level, Level: g.Level, Metric: g.Metric, Op: OpIncrease, Threshold: float64(*g.MaxIncrease)}
	limit := FormatChange(float64(*g.MaxIncrease))
	if cmp == nil {
		r.Status, r.Message = Skipped, fmt.Sprintf("no baseline to measure the change of %s against", g.Metric)
		return r
	}
	base, ok := cmp.BaselineMetrics[g.Metric]
	if !ok {
		r.Status = Skipped
		r.Message = fmt.Sprintf("baseline %s has no %s (recorded before evalgate measured it): the change is not gated; refresh the baseline to record it", cmp.BaselineFile, g.Metric)
		return r
	}
	cand, ok := sc.Metrics[g.Metric]
	if !ok {
		r.Status, r.Message = failOrWarn(g.Level), noData(g.Metric, sc)
		return r
	}
	r.Actual = &cand
	unit := rubric.MetricUnit(g.Metric)
	change := RelativeChange(base, cand)
	r.Change, r.ChangeInfinite = JSONChange(change)
	desc := fmt.Sprintf("%s %s → %s (%s)", g.Metric, rubric.FormatMetric(base, unit), rubric.FormatMetric(cand, unit), FormatChange(change))
	if change <= r.Threshold {
		r.Status, r.Message = Pass, desc+" ≤ "+limit
	} else {
		r.Status, r.Message = failOrWarn(g.Level), desc+" > "+limit
	}
	return r
}

// RelativeChange is the one rule for a figure's change against the baseline's, which
// max_increase gates and the cost line both print: (cand − base) / base; from 0 to
// more it is +Inf, from 0 to 0 (or less) no change.
func RelativeChange(base, cand float64) float64 {
	switch {
	case base > 0:
		return rubric.Round9((cand - base) / base)
	case cand <= 0:
		return 0
	}
	return math.Inf(1)
}

// JSONChange splits a change into what JSON can carry: the number, or (JSON has no
// infinity) none and infinite set.
func JSONChange(x float64) (change *float64, infinite bool) {
	if math.IsInf(x, 1) {
		return nil, true
	}
	return &x, false
}

// ChangeText prints a change JSONChange split ("" when there is none).
func ChangeText(change *float64, infinite bool) string {
	switch {
	case infinite:
		return FormatChange(math.Inf(1))
	case change != nil:
		return FormatChange(*change)
	}
	return ""
}

// FormatChange prints a relative change with a real minus sign (U+2212), as scores
// are: "+33 %", "−4.5 %", "±0 %" ("+∞ %" from nothing to something).
func FormatChange(x float64) string {
	if math.IsInf(x, 1) {
		return "+∞ %"
	}
	return strings.TrimSuffix(signed(x*100, 1), ".0") + " %"
}

// noData says why a gated metric is absent: the models without a price when it is a
// cost, else that the run has no data for it.
func noData(metric string, sc *rubric.Scored) string {
	if rubric.IsCostMetric(metric) && len(sc.CostUnknown) > 0 {
		return "cost unknown: " + strings.Join(sc.CostUnknown, ", ") + " (add the price under `pricing:`)"
	}
	return fmt.Sprintf("%s has no data in this run", metric)
}
