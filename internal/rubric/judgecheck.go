package rubric

import (
	"context"
	"math"

	"github.com/evalgate/evalgate/internal/eval"
)

// Judged is one llm_judge dimension's verdicts on a batch of samples.
type Judged struct {
	// Dimension is the dimension's index in the scoring system.
	Dimension int
	// Judge names the dimension's judge; empty for a panel (see Reviewers).
	Judge string
	// Values are the normalized values, one per sample (NaN: the judge gave none).
	Values []float64
	// Verdicts are the values as scored, one per sample (ValueText reads them on the
	// scale).
	Verdicts []Value
	// Reviewers are a panel's reviewers, and Reviewer[r][i] reviewer r's normalized raw
	// value on sample i (NaN: none); empty for a single judge.
	Reviewers []string
	Reviewer  [][]float64
}

// JudgedDimensions lists the indices of the llm_judge dimensions.
func (s *System) JudgedDimensions() []int {
	var out []int
	for d, sc := range s.scorers {
		if _, ok := sc.(judgedScorer); ok {
			out = append(out, d)
		}
	}
	return out
}

// judgedScorer is what a reliability check asks of an llm_judge scorer.
type judgedScorer interface {
	Preparer
	Scorer
	// reviewerValues returns each reviewer's name and normalized raw value of the
	// sample (nil for a single judge).
	reviewerValues(in *Input) ([]string, []float64)
	// judgeName names the judge ("" for a panel).
	judgeName() string
}

// JudgeOnce judges every sample (item, result) once on each llm_judge dimension, in
// batches through each judge's worker pool, and returns the values. Build the system
// with its judges' cache bypassed (no_cache) to measure the judges' own noise: each
// call of JudgeOnce is then one fresh repeat.
func (s *System) JudgeOnce(ctx context.Context, items []*eval.Item, results []*eval.Result) ([]Judged, error) {
	var out []Judged
	for _, d := range s.JudgedDimensions() {
		sc := s.scorers[d].(judgedScorer)
		ins := make([]*Input, len(items))
		for i := range items {
			ins[i] = s.inputsFor(items[i], results[i], 0, false)[d]
		}
		if err := sc.Prepare(ctx, ins); err != nil {
			return nil, err
		}
		j := Judged{Dimension: d, Judge: sc.judgeName(), Values: make([]float64, len(ins)), Verdicts: make([]Value, len(ins))}
		for i, in := range ins {
			v, err := sc.Score(in)
			if err != nil {
				return nil, err
			}
			j.Verdicts[i] = v
			j.Values[i] = math.NaN()
			if v.Raw != nil && v.Error == "" {
				j.Values[i] = v.Norm
			}
			names, raws := sc.reviewerValues(in)
			if j.Reviewer == nil && names != nil {
				j.Reviewers = names
				j.Reviewer = make([][]float64, len(names))
				for r := range j.Reviewer {
					j.Reviewer[r] = make([]float64, len(ins))
				}
			}
			for r := range raws {
				j.Reviewer[r][i] = raws[r]
			}
		}
		out = append(out, j)
	}
	return out, nil
}

// DimensionJudges names the judges that score dimension d, as a reliability check names
// them: its judge, or a panel's reviewers ("<judge>#<k>" when each judge is sampled k
// times); nil for a dimension no judge scores.
func (s *System) DimensionJudges(d int) []string {
	switch sc := s.scorers[d].(type) {
	case *llmJudgeScorer:
		return []string{sc.sj.name}
	case *panelScorer:
		return sc.reviewerNames()
	}
	return nil
}
