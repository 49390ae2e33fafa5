package rubric

import (
	"context"

	"github.com/evalgate/evalgate/internal/eval"
)

// ScoreOne scores one result of one item dimension by dimension, as rubric fixtures
// need: the raw values, and the item's score (weights, ceilings and vetoes applied) when
// every dimension could be scored. A dimension whose scorer cannot answer (a judge in
// replay mode without the verdict in its cache) gets an error and no value; the other
// dimensions are still scored.
func (s *System) ScoreOne(ctx context.Context, it *eval.Item, res *eval.Result, verdict map[string]any) ([]Value, *float64, []error) {
	ins := s.inputsFor(it, res, 0, false)
	for _, in := range ins {
		if in != nil {
			in.Verdict = verdict
		}
	}
	vals := make([]Value, len(s.Dimensions))
	errs := make([]error, len(s.Dimensions))
	for d, sc := range s.scorers {
		if p, ok := sc.(Preparer); ok {
			if err := p.Prepare(ctx, []*Input{ins[d]}); err != nil {
				errs[d] = err
				continue
			}
		}
		vals[d], errs[d] = sc.Score(ins[d])
	}
	for _, err := range errs {
		if err != nil {
			return vals, nil, errs
		}
	}
	sm := Sample{Values: vals, Result: res}
	s.weigh(&sm)
	if sm.Pending {
		return vals, nil, errs
	}
	s.capScore(&sm)
	return vals, &sm.Score, errs
}
