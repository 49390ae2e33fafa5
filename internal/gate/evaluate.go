package gate

import (
	"fmt"
	"math"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/rubric"
)

// Gate kinds, as shown in the gate table.
const (
	KindHard       = "hard"
	KindSoft       = "soft"
	KindRegression = "regression"
	KindVeto       = "veto"
)

// Statuses of a gate and of the verdict.
const (
	Pass    = "pass"
	Warn    = "warn"
	Fail    = "fail"
	Skipped = "skipped"
)

// Result is one gate's outcome.
type Result struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Level     string   `json:"level"`
	Metric    string   `json:"metric,omitempty"`
	Op        string   `json:"op,omitempty"` // ">=" or "<="
	Threshold float64  `json:"threshold"`
	Actual    *float64 `json:"actual"`
	Std       float64  `json:"std,omitempty"` // spread of the metric over runs
	Status    string   `json:"status"`
	Message   string   `json:"message"`
}

// Verdict is the outcome of grading a run.
type Verdict struct {
	Status     string       `json:"status"` // pass, warn or fail
	Reason     string       `json:"reason"` // the one reason that matters
	Gates      []Result     `json:"gates"`
	Grade      *GradeResult `json:"grade,omitempty"`
	NoBaseline string       `json:"no_baseline,omitempty"` // why there is no comparison, and how to make one
}

// Evaluate grades a scored run, with the comparison when there is a baseline.
// noBaseline explains a missing comparison.
func (s *System) Evaluate(sc *rubric.Scored, cmp *baseline.Comparison, noBaseline string) *Verdict {
	v := &Verdict{NoBaseline: noBaseline}
	v.Gates = append(v.Gates, s.regressionResults(cmp)...)
	v.Gates = append(v.Gates, s.vetoResults(sc)...)
	for _, g := range s.Gates {
		v.Gates = append(v.Gates, metricGate(g, sc))
	}
	v.Grade = s.grade(sc)
	v.decide()
	return v
}

func metricGate(g Gate, sc *rubric.Scored) Result {
	r := Result{Name: g.Name, Kind: g.Level, Level: g.Level, Metric: g.Metric}
	if g.Min != nil {
		r.Op, r.Threshold = ">=", *g.Min
	} else {
		r.Op, r.Threshold = "<=", *g.Max
	}
	val, ok := sc.Metrics[g.Metric]
	if !ok {
		r.Status = failOrWarn(g.Level)
		r.Message = fmt.Sprintf("%s has no data in this run", g.Metric)
		return r
	}
	r.Actual = &val
	r.Std = sc.MetricsStd[g.Metric]
	okay := rubric.Round9(val) >= r.Threshold
	if r.Op == "<=" {
		okay = rubric.Round9(val) <= r.Threshold
	}
	if okay {
		r.Status = Pass
		r.Message = fmt.Sprintf("%s = %s %s %s", g.Metric, fmtNum(val), r.Op, fmtNum(r.Threshold))
	} else {
		r.Status = failOrWarn(g.Level)
		neg := map[string]string{">=": "<", "<=": ">"}[r.Op]
		r.Message = fmt.Sprintf("%s = %s %s %s", g.Metric, fmtNum(val), neg, fmtNum(r.Threshold))
	}
	return r
}

func failOrWarn(level string) string {
	if level == Soft {
		return Warn
	}
	return Fail
}

// vetoResults adds a hard gate per scoring-system veto: any vetoed item fails it.
func (s *System) vetoResults(sc *rubric.Scored) []Result {
	var out []Result
	for _, vt := range sc.System.Vetoes {
		metric := vt.Dimension + "_failures"
		explicit := false
		for _, g := range s.Gates {
			explicit = explicit || g.Metric == metric
		}
		if explicit {
			continue
		}
		val := sc.Metrics[metric]
		r := Result{Name: vt.Dimension + " veto", Kind: KindVeto, Level: Hard, Metric: metric, Op: "<=", Threshold: 0, Actual: &val}
		if val > 0 {
			r.Status = Fail
			r.Message = fmt.Sprintf("%s failed on %s item(s): vetoed items are capped at %s", vt.Dimension, fmtNum(val), fmtNum(vt.Cap))
		} else {
			r.Status = Pass
			r.Message = "no " + vt.Dimension + " failures"
		}
		out = append(out, r)
	}
	return out
}

// regressionResults is the gate against the baseline, and its per-dimension drops.
func (s *System) regressionResults(cmp *baseline.Comparison) []Result {
	rg := s.RegressionGate()
	if rg.Disabled {
		return nil
	}
	r := Result{Name: "regression", Kind: KindRegression, Level: rg.Level, Metric: "mean_score", Op: "drop <=", Threshold: *rg.MaxDrop}
	if cmp == nil {
		r.Status = Skipped
		r.Message = "no baseline: nothing to compare with"
		return []Result{r}
	}
	d := cmp.Decision
	drop := d.Drop
	r.Actual = &drop
	switch {
	case d.Blocked:
		r.Status = failOrWarn(rg.Level)
	default:
		r.Status = Pass
	}
	r.Message = fmt.Sprintf("Δ %s (%s → %s), 95%% CI [%s, %s]; allowed drop %s", FormatDelta(cmp.Delta, cmp.RelDelta, rg.Mode),
		fmtScore(cmp.Base), fmtScore(cmp.Cand), FormatPts(cmp.CI.Lo), FormatPts(cmp.CI.Hi), FormatDrop(*rg.MaxDrop, rg.Mode))
	if d.Method == "significance" && d.Exceeded && !d.Significant {
		r.Message += "; not significant (the interval includes 0)"
	}
	if d.Method == "stable" && d.Unstable > 0 {
		r.Message += fmt.Sprintf("; %d item(s) flip between runs and count half", d.Unstable)
	}
	out := []Result{r}
	for _, dd := range cmp.Dimensions {
		if dd.MaxDrop == nil {
			continue
		}
		drop := -dd.Delta
		dr := Result{Name: "regression: " + dd.Name, Kind: KindRegression, Level: rg.Level, Metric: dd.Name + "_score", Op: "drop <=", Threshold: *dd.MaxDrop, Actual: &drop, Status: Pass}
		if dd.Blocked {
			dr.Status = failOrWarn(rg.Level)
		}
		dr.Message = fmt.Sprintf("%s Δ %s; allowed drop %s", dd.Name, FormatPts(dd.Delta), FormatDrop(*dd.MaxDrop, Absolute))
		out = append(out, dr)
	}
	return out
}

// grade computes the letter grade when the grading system has grades, and REJECTED
// whenever a veto fired.
func (s *System) grade(sc *rubric.Scored) *GradeResult {
	g := s.Grades
	vetoDims := map[int]bool{}
	for _, vt := range sc.System.Vetoes {
		vetoDims[sc.System.DimensionIndex(vt.Dimension)] = true
	}
	if g != nil {
		for _, d := range g.Veto {
			vetoDims[sc.System.DimensionIndex(d)] = true
		}
	}
	vetoedBy := ""
	var sum, wsum float64
	sc.EachSample(func(_, _ int, sm *rubric.Sample) {
		for d, val := range sm.Values {
			if vetoDims[d] && !sm.Missing && sc.System.Failed(d, val) && vetoedBy == "" {
				vetoedBy = sc.System.Dimensions[d].Name
			}
			if val.Excluded {
				continue
			}
			w := sc.System.Dimensions[d].Weight
			sum += w * rubric.Native(val.Norm)
			wsum += w
		}
	})
	if g == nil {
		if vetoedBy == "" {
			return nil
		}
		return &GradeResult{Grade: Rejected, VetoedBy: vetoedBy, Basis: "veto"}
	}
	if g.Basis == "score" {
		m, ok := sc.Metrics[rubric.MetricMeanScore]
		res := g.Band(m, ok, vetoedBy)
		return &res
	}
	mean := 0.0
	if wsum > 0 {
		mean = rubric.Round9(sum / wsum)
	}
	res := g.Band(mean, wsum > 0, vetoedBy)
	return &res
}

// decide sets the verdict from the gates: any failed gate fails the run (the first
// failure, regression first, is the reason); else any warning warns.
func (v *Verdict) decide() {
	v.Status = Pass
	var firstFail, firstWarn *Result
	for i := range v.Gates {
		g := &v.Gates[i]
		switch g.Status {
		case Fail:
			if firstFail == nil {
				firstFail = g
			}
		case Warn:
			if firstWarn == nil {
				firstWarn = g
			}
		}
	}
	switch {
	case firstFail != nil:
		v.Status = Fail
		v.Reason = fmt.Sprintf("%s gate %q failed: %s", firstFail.Kind, firstFail.Name, firstFail.Message)
	case firstWarn != nil:
		v.Status = Warn
		v.Reason = fmt.Sprintf("%s gate %q warns: %s", firstWarn.Kind, firstWarn.Name, firstWarn.Message)
	default:
		v.Reason = "all gates pass"
	}
	if v.Grade != nil && v.Grade.Grade == Rejected && v.Status != Fail {
		v.Status = Fail
		v.Reason = fmt.Sprintf("grade REJECTED: %s vetoed", v.Grade.VetoedBy)
	}
}

// fmtNum prints a metric without float noise.
func fmtNum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return fmt.Sprintf("%d", int64(x))
	}
	return fmt.Sprintf("%.4g", rubric.Round9(x))
}

func fmtScore(x float64) string { return fmt.Sprintf("%.3f", x) }
