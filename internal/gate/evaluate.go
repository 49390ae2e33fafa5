package gate

import (
	"fmt"

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
	Status    Status   `json:"status"`
	Message   string   `json:"message"`
	// DecidedBy, on a regression gate, is the line that says which figure decided and
	// why (RegressionDecision.DecidedBy).
	DecidedBy string `json:"decided_by,omitempty"`
	// Change is, on a max_increase gate (Op OpIncrease), the relative change against the
	// baseline it was judged by; Threshold is then a relative change too.
	// ChangeInfinite is set instead of Change when the change is +∞ (a baseline of 0
	// and more now): JSON has no infinity.
	Change         *float64 `json:"change,omitempty"`
	ChangeInfinite bool     `json:"change_infinite,omitempty"`
	// Estimated is set when Actual is an estimate (a latency percentile from a sketch):
	// its method and error bound (estimate.go).
	Estimated *rubric.Estimate `json:"estimated,omitempty"`
}

// Verdict is the outcome of grading a run: the one typed status every other package
// reads. Its JSON is the report's "verdict" object.
type Verdict struct {
	// Status is pass, warn, inconclusive, fail or accepted.
	Status Status `json:"status"`
	// Blocks says the pull request must not merge: exit code 1 and a failed check. True
	// for fail, and for inconclusive under `regression.inconclusive: block`.
	Blocks bool `json:"blocks"`
	// Reason is the one reason that matters.
	Reason string `json:"reason"`
	// DecidedBy is the regression decision's line when the regression gate set the
	// status: "decided by estimated drop 3.1 pts > 2.0 pts (…)".
	DecidedBy string `json:"decided_by,omitempty"`
	// NoBaseline says why there is no comparison, and how to make one.
	NoBaseline string `json:"no_baseline,omitempty"`
	// MissingBaseline is the baseline file the config names when it does not exist: not
	// a baseline yet to be made but, often, a misspelt path. Renderers show it as a
	// warning at the top.
	MissingBaseline string `json:"missing_baseline,omitempty"`
	// AcceptedBy is the maintainer whose accept label turned a regression block into
	// Accepted.
	AcceptedBy string `json:"accepted_by,omitempty"`
	// AcceptLabel is the label AcceptedBy applied ("evalgate/accept").
	AcceptLabel string `json:"accept_label,omitempty"`

	// Gates, Grade and Regression are the details; the report carries them apart.
	Gates      []Result            `json:"-"`
	Grade      *GradeResult        `json:"-"`
	Regression *RegressionDecision `json:"-"`
}

// Inputs are what Evaluate needs besides the scores and the comparison.
type Inputs struct {
	// NoBaseline explains a missing comparison.
	NoBaseline string
	// MissingBaseline is the baseline file the config names when it does not exist.
	MissingBaseline string
	// RequireBaseline is the action's require-baseline input: like the config's
	// grading.regression.require_baseline, a missing baseline then fails the check.
	RequireBaseline bool
	// FirstAdoption says the pull request adds evalgate (its base commit has no
	// config): a missing baseline never fails it.
	FirstAdoption bool
	// AcceptedBy is the login of a maintainer who applied the accept label (checked to
	// have write access), AcceptLabel the label. When the regression gate is the only
	// blocking gate, the verdict becomes Accepted.
	AcceptedBy, AcceptLabel string
	// Level is the level of the regression gate's test (Regression.DecideAt); 0 means
	// Alpha. A sequential procedure deciding the same pull request several times (settle)
	// sets each look's share of its overall level.
	Level float64
	// Rerun words the command that re-runs the given items and checks again (the
	// evidence of a regression decision that did not pass), or, when no command can
	// (nothing in the config re-runs items), what to do instead: the decision's
	// RerunCommand and RerunHint. nil: neither is offered.
	Rerun func(ids []string) (command, hint string)
}

// Evaluate grades a scored run, with the comparison when there is a baseline.
func (s *System) Evaluate(sc *rubric.Scored, cmp *baseline.Comparison, in Inputs) *Verdict {
	v := &Verdict{NoBaseline: in.NoBaseline, MissingBaseline: in.MissingBaseline}
	rg := s.RegressionGate()
	if cmp != nil && !rg.Disabled {
		v.Regression = rg.DecideAt(cmp, in.Level)
	}
	v.Gates = append(v.Gates, regressionResults(rg, cmp, v.Regression)...)
	requireBaseline(v, rg, cmp, in)
	v.Gates = append(v.Gates, s.vetoResults(sc)...)
	for _, g := range s.Gates {
		if g.MaxIncrease != nil {
			v.Gates = append(v.Gates, increaseGate(g, sc, cmp))
			continue
		}
		v.Gates = append(v.Gates, metricGate(g, sc))
	}
	v.Grade = s.grade(sc)
	v.decide(rg)
	v.accept(in)
	v.annotate(rg, cmp, in)
	return v
}

// requireBaseline fails the regression gate when a baseline is required and the one the
// config names does not exist, unless the pull request is the one that adds evalgate.
func requireBaseline(v *Verdict, rg *Regression, cmp *baseline.Comparison, in Inputs) {
	if cmp != nil || in.MissingBaseline == "" || in.FirstAdoption || rg.Disabled || !(rg.RequireBaseline || in.RequireBaseline) {
		return
	}
	for i := range v.Gates {
		if g := &v.Gates[i]; g.Kind == KindRegression && g.Status == Skipped {
			g.Status = Fail
			g.Message = fmt.Sprintf("baseline %s is required (require_baseline) but does not exist", in.MissingBaseline)
		}
	}
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
		r.Message = noData(g.Metric, sc)
		return r
	}
	r.Actual = &val
	r.Std = sc.MetricsStd[g.Metric]
	okay := rubric.Round9(val) >= r.Threshold
	if r.Op == "<=" {
		okay = rubric.Round9(val) <= r.Threshold
	}
	unit := rubric.MetricUnit(g.Metric)
	if okay {
		r.Status = Pass
		r.Message = fmt.Sprintf("%s = %s %s %s", g.Metric, rubric.FormatMetric(val, unit), r.Op, rubric.FormatMetric(r.Threshold, unit))
	} else {
		r.Status = failOrWarn(g.Level)
		neg := map[string]string{">=": "<", "<=": ">"}[r.Op]
		r.Message = fmt.Sprintf("%s = %s %s %s", g.Metric, rubric.FormatMetric(val, unit), neg, rubric.FormatMetric(r.Threshold, unit))
	}
	estimated(&r, sc)
	return r
}

func failOrWarn(level string) Status {
	if level == Soft {
		return Warn
	}
	return Fail
}

// vetoResults adds a hard gate per scoring-system veto: any vetoed item fails it.
func (s *System) vetoResults(sc *rubric.Scored) []Result {
	var out []Result
	for _, vt := range sc.System.Vetoes {
		metric := rubric.DimensionMetric(vt.Dimension, rubric.SuffixFailures)
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
			r.Message = fmt.Sprintf("%s failed on %s item(s): vetoed items are capped at %s", vt.Dimension, rubric.FormatMetric(val, rubric.UnitScore), rubric.FormatMetric(vt.Cap, rubric.UnitScore))
		} else {
			r.Status = Pass
			r.Message = "no " + vt.Dimension + " failures"
		}
		out = append(out, r)
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
// failure, regression first, is the reason); else an inconclusive regression; else any
// warning warns.
func (v *Verdict) decide(rg *Regression) {
	v.Status = Pass
	var firstFail, firstInconclusive, firstWarn *Result
	for i := range v.Gates {
		g := &v.Gates[i]
		switch g.Status {
		case Fail:
			if firstFail == nil {
				firstFail = g
			}
		case Inconclusive:
			if firstInconclusive == nil {
				firstInconclusive = g
			}
		case Warn:
			if firstWarn == nil {
				firstWarn = g
			}
		}
	}
	switch {
	case firstFail != nil:
		v.Status, v.Blocks = Fail, true
		v.Reason = fmt.Sprintf("%s gate %q failed: %s", firstFail.Kind, firstFail.Name, firstFail.Message)
		v.DecidedBy = firstFail.DecidedBy
	case firstInconclusive != nil:
		v.Status, v.Blocks = Inconclusive, rg.Inconclusive == InconclusiveBlock && rg.Level == Hard
		v.Reason = fmt.Sprintf("%s gate %q is inconclusive: %s", firstInconclusive.Kind, firstInconclusive.Name, firstInconclusive.Message)
		v.DecidedBy = firstInconclusive.DecidedBy
	case firstWarn != nil:
		v.Status = Warn
		v.Reason = fmt.Sprintf("%s gate %q warns: %s", firstWarn.Kind, firstWarn.Name, firstWarn.Message)
		v.DecidedBy = firstWarn.DecidedBy
	case v.NoBaseline != "" && !rg.Disabled:
		v.Reason = "all other gates pass; the regression gate did not run: no baseline to compare with"
	default:
		v.Reason = "all gates pass"
	}
	if v.Grade != nil && v.Grade.Grade == Rejected && v.Status != Fail {
		v.Status, v.Blocks = Fail, true
		v.Reason = fmt.Sprintf("grade REJECTED: %s vetoed", v.Grade.VetoedBy)
		v.DecidedBy = ""
	}
}

// accept turns a block that only regression gates caused into Accepted when a
// maintainer applied the accept label.
func (v *Verdict) accept(in Inputs) {
	if in.AcceptedBy == "" || !v.Blocks {
		return
	}
	if !v.OnlyRegressionFails() {
		return
	}
	label := in.AcceptLabel
	if label == "" {
		label = "accept"
	}
	v.Status, v.Blocks, v.AcceptedBy, v.AcceptLabel = Accepted, false, in.AcceptedBy, label
	v.Reason = "regression accepted with the " + label + " label by " + in.AcceptedBy + ": " + v.Reason
}

// OnlyRegressionFails says no gate but a regression gate fails and the grade vetoes
// nothing: a block the regression decision alone caused, which an accept label can
// lift and re-runs can overturn.
func (v *Verdict) OnlyRegressionFails() bool {
	if v.Grade != nil && v.Grade.Grade == Rejected {
		return false
	}
	for _, g := range v.Gates {
		if g.Kind != KindRegression && g.Status == Fail {
			return false
		}
	}
	return true
}

func fmtScore(x float64) string { return fmt.Sprintf("%.3f", x) }
