package rubric

import (
	"fmt"
	"strconv"
)

// passes applies the pass rule to a scored sample and says why it fails. An error is
// a condition on a sample field the record lacks.
func (s *System) passes(sm *Sample) (bool, string, error) {
	switch {
	case sm.Missing:
		return false, "no result (missing)", nil
	case sm.Pending:
		return false, "pending: every dimension n/a or stale", nil
	case sm.Result == nil:
		return false, "no result", nil
	case sm.Result.TimedOut:
		return false, "timed out", nil
	case sm.Result.Error != "":
		return false, "error: " + sm.Result.Error, nil
	}
	rule := s.Pass
	if rule.MinScore == nil && len(rule.Require) == 0 {
		if Round9(sm.Score) < DefaultPassScore {
			return false, scoreBelow(sm.Score, DefaultPassScore), nil
		}
		return true, "", nil
	}
	if rule.MinScore != nil && Round9(sm.Score) < *rule.MinScore {
		return false, scoreBelow(sm.Score, *rule.MinScore), nil
	}
	for ci, c := range rule.Require {
		var x float64
		if c.Dimension != "" {
			v := sm.Values[s.conditionDim[ci]]
			if v.Excluded {
				continue
			}
			if v.Raw == nil {
				return false, c.Dimension + " is null (judge error)", nil
			}
			x = *v.Raw
		} else {
			val, ok := sampleField(sm, c.Field)
			if !ok {
				return false, "", fmt.Errorf("the pass rule tests %q; the record has none", c.Field)
			}
			x = val
		}
		name := c.Dimension + c.Field
		if c.Min != nil && x < *c.Min {
			return false, fmt.Sprintf("%s %g < %g", name, x, *c.Min), nil
		}
		if c.Max != nil && x > *c.Max {
			return false, fmt.Sprintf("%s %g > %g", name, x, *c.Max), nil
		}
	}
	return true, "", nil
}

func sampleField(sm *Sample, field string) (float64, bool) {
	r := sm.Result
	get := func(p *float64) (float64, bool) {
		if p == nil {
			return 0, false
		}
		return *p, true
	}
	switch field {
	case "latency_e2e_ms":
		return get(r.LatencyE2EMs)
	case "latency_model_ms":
		return get(r.LatencyModelMs)
	case "input_tokens":
		return get(r.InputTokens)
	case "output_tokens":
		return get(r.OutputTokens)
	case "total_tokens":
		return r.TotalTokens()
	case "score":
		return sm.Score, true
	}
	return 0, false
}

// scoreBelow words a score under the pass rule's minimum: at three decimals, or, where
// three decimals round it up to the minimum ("score 0.800 < 0.8" for 0.7996), as many
// as show it below.
func scoreBelow(score, min float64) string {
	txt := fmt.Sprintf("%.3f", score)
	if v, err := strconv.ParseFloat(txt, 64); err == nil && v >= min {
		txt = strconv.FormatFloat(Round9(score), 'g', -1, 64)
	}
	return fmt.Sprintf("score %s < %g", txt, min)
}
