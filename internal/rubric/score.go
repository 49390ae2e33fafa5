package rubric

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/evalgate/evalgate/internal/eval"
)

// RunScore is one run (results file) scored: one Sample per suite item, in suite order.
type RunScore struct {
	File    string
	Samples []Sample
	Missing []string // ids of items the run has no result for
	Metrics Metrics
}

// ItemScore is one item over all runs: per-run values averaged.
type ItemScore struct {
	Item      *eval.Item
	Score     float64    // mean of the per-run scores (missing runs count 0)
	Breakdown []float64  // per dimension: mean normalized value over runs
	Weighted  []float64  // per dimension: mean weighted value over runs
	Raw       []*float64 // per dimension: mean raw value over runs that have one
	Labels    []string   // per dimension: the first run's label (pass_fail scale)
	Errors    []string   // per dimension: the first evaluator error seen
	Pass      bool       // passed in at least half the runs
	PassRuns  int
	Runs      int
	Missing   int    // runs without a result
	CappedBy  string // set when the item was capped in any run
	Pending   bool   // every dimension n/a or stale in every run
	Why       string // why the item failed, from the first failing run
}

// Scored is a suite scored over one or more runs.
type Scored struct {
	System *System
	Suite  *eval.Suite
	Runs   []RunScore
	Items  []ItemScore
	// Metrics is the mean of each per-run metric over runs; MetricsStd its sample std.
	Metrics    Metrics
	MetricsStd Metrics
}

// suiteFieldError marks a scorer error caused by the suite item rather than the record.
type suiteFieldError struct{ error }

// Score scores every run of the suite. Bad input (a result for an unknown item, a
// missing configured field) is returned as an *eval.InputError.
func Score(ctx context.Context, sys *System, suite *eval.Suite, runs []*eval.Run) (*Scored, error) {
	if !sys.Built() {
		return nil, errors.New("rubric: Score called before Build")
	}
	if len(runs) == 0 {
		return nil, errors.New("no results: give at least one results file")
	}
	inputs := make([][][]*Input, len(runs)) // run → item → dimension
	for r, run := range runs {
		if err := run.CheckAgainst(suite); err != nil {
			return nil, err
		}
		inputs[r] = make([][]*Input, len(suite.Items))
		for i, it := range suite.Items {
			res, ok := run.Result(it.ID)
			if !ok {
				continue
			}
			inputs[r][i] = sys.inputsFor(it, res, r)
		}
	}
	for d, sc := range sys.scorers {
		p, ok := sc.(Preparer)
		if !ok {
			continue
		}
		var batch []*Input
		for r := range inputs {
			for _, dims := range inputs[r] {
				if dims != nil {
					batch = append(batch, dims[d])
				}
			}
		}
		if err := p.Prepare(ctx, batch); err != nil {
			return nil, fmt.Errorf("dimension %q: %w", sys.Dimensions[d].Name, err)
		}
	}
	out := &Scored{System: sys, Suite: suite}
	for r, run := range runs {
		rs := RunScore{File: run.File, Samples: make([]Sample, len(suite.Items))}
		for i, it := range suite.Items {
			sm, err := sys.scoreSample(inputs[r][i], suite, run)
			if err != nil {
				return nil, err
			}
			if sm.Missing {
				rs.Missing = append(rs.Missing, it.ID)
			}
			rs.Samples[i] = sm
		}
		rs.Metrics = sys.runMetrics(&rs)
		out.Runs = append(out.Runs, rs)
	}
	out.Items = sys.aggregateItems(suite, out.Runs)
	out.Metrics, out.MetricsStd = acrossRuns(out.Runs)
	return out, nil
}

// inputsFor builds the per-dimension inputs of one sample, reading a JSON output once.
func (s *System) inputsFor(it *eval.Item, res *eval.Result, run int) []*Input {
	ins := make([]*Input, len(s.Dimensions))
	var parsed map[string]any
	parsedOK, tried := false, false
	for d := range s.Dimensions {
		in := &Input{Item: it, Result: res, Run: run, Text: res.Output}
		if res.Error != "" && res.Output == "" {
			in.TextErr = "the system under test failed: " + res.Error
		}
		if f := s.Dimensions[d].OutputField; f != "" && in.TextErr == "" {
			if !tried {
				tried = true
				parsedOK = json.Unmarshal([]byte(res.Output), &parsed) == nil && parsed != nil
			}
			in.Text, in.TextErr = fieldText(parsed, parsedOK, f)
		}
		ins[d] = in
	}
	return ins
}

func fieldText(obj map[string]any, ok bool, field string) (string, string) {
	if !ok {
		return "", "output is not a JSON object"
	}
	v, found := eval.Lookup(obj, field)
	if !found {
		return "", fmt.Sprintf("output has no field %q", field)
	}
	switch x := v.(type) {
	case string:
		return x, ""
	case nil:
		return "", fmt.Sprintf("output field %q is null", field)
	default:
		b, _ := json.Marshal(x)
		return string(b), ""
	}
}

func (s *System) scoreSample(ins []*Input, suite *eval.Suite, run *eval.Run) (Sample, error) {
	if ins == nil {
		sm := Sample{Missing: true, Why: "no result (missing)", Values: make([]Value, len(s.Dimensions)), Weighted: make([]float64, len(s.Dimensions))}
		return sm, nil
	}
	sm := Sample{Values: make([]Value, len(s.Dimensions)), Result: ins[0].Result}
	for d, sc := range s.scorers {
		v, err := sc.Score(ins[d])
		if err != nil {
			return sm, s.inputError(err, ins[d], suite, run)
		}
		sm.Values[d] = v
	}
	s.weigh(&sm)
	if !sm.Pending {
		s.capScore(&sm)
	}
	pass, why, err := s.passes(&sm)
	if err != nil {
		return sm, s.inputError(err, ins[0], suite, run)
	}
	sm.Pass, sm.Why = pass, why
	return sm, nil
}

func (s *System) inputError(err error, in *Input, suite *eval.Suite, run *eval.Run) error {
	var ie *eval.InputError
	if errors.As(err, &ie) {
		return ie
	}
	var sfe suiteFieldError
	if errors.As(err, &sfe) {
		return eval.Errorf(suite.File, in.Item.Line, in.Item.ID, "%v", sfe.error)
	}
	return eval.Errorf(run.File, in.Result.Line, in.Item.ID, "%v", err)
}

// aggregateItems averages each item's samples over runs.
func (s *System) aggregateItems(suite *eval.Suite, runs []RunScore) []ItemScore {
	nd := len(s.Dimensions)
	items := make([]ItemScore, len(suite.Items))
	for i, it := range suite.Items {
		is := ItemScore{Item: it, Runs: len(runs), Breakdown: make([]float64, nd), Weighted: make([]float64, nd),
			Raw: make([]*float64, nd), Labels: make([]string, nd), Errors: make([]string, nd)}
		rawSum := make([]float64, nd)
		rawN := make([]int, nd)
		normN := make([]int, nd)
		scored := 0
		for r := range runs {
			sm := &runs[r].Samples[i]
			if sm.Missing {
				is.Missing++
			}
			if sm.Pass {
				is.PassRuns++
			} else if is.Why == "" {
				is.Why = sm.Why
			}
			if sm.CappedBy != "" && is.CappedBy == "" {
				is.CappedBy = sm.CappedBy
			}
			if sm.Pending {
				continue
			}
			scored++
			is.Score += sm.Score
			for d, v := range sm.Values {
				if is.Labels[d] == "" {
					is.Labels[d] = v.Label
				}
				if is.Errors[d] == "" {
					is.Errors[d] = v.Error
				}
				if v.Excluded {
					continue
				}
				is.Breakdown[d] += v.Norm
				is.Weighted[d] += sm.Weighted[d]
				normN[d]++
				if v.Raw != nil {
					rawSum[d] += *v.Raw
					rawN[d]++
				}
			}
		}
		if scored == 0 {
			is.Pending = true
		} else {
			is.Score = Round9(is.Score / float64(scored))
		}
		for d := 0; d < nd; d++ {
			if normN[d] > 0 {
				is.Breakdown[d] = Round9(is.Breakdown[d] / float64(normN[d]))
				is.Weighted[d] = Round9(is.Weighted[d] / float64(normN[d]))
			}
			if rawN[d] > 0 {
				is.Raw[d] = ptr(Round9(rawSum[d] / float64(rawN[d])))
			}
		}
		// Across N runs an item passes if it passed in at least half of them.
		is.Pass = !is.Pending && 2*is.PassRuns >= len(runs)
		items[i] = is
	}
	return items
}
