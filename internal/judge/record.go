package judge

import (
	"errors"
	"fmt"
	"math"
)

// Record stores v as the cached verdict for r, as if the model had given it. It is for
// verdicts made without a model, such as a scripted judge recording the replay cache of
// an offline example, or human labels; set v.Model to say where the verdict came from
// (e.g. "scripted-judge"). A verdict that does not fit the template is refused: every
// key present, each an integer in range, or every key null with an EvaluatorError.
func (j *Judge) Record(r Request, v Judgment) error {
	if j.cache == nil {
		return errors.New("judge: cannot record a verdict with no_cache set")
	}
	nulls := 0
	for _, k := range j.tmpl.Keys {
		s, ok := v.Scores[k.Name]
		switch {
		case !ok:
			return fmt.Errorf("judge: record item %q: no score for key %q", r.ID, k.Name)
		case s == nil:
			nulls++
		case *s != math.Trunc(*s) || *s < float64(k.Min) || *s > float64(k.Max):
			return fmt.Errorf("judge: record item %q: key %q is %v; want an integer in %d..%d", r.ID, k.Name, *s, k.Min, k.Max)
		}
	}
	switch {
	case len(v.Scores) != len(j.tmpl.Keys):
		return fmt.Errorf("judge: record item %q: scores have keys the template %s lacks", r.ID, j.tmpl.ID)
	case nulls > 0 && (nulls != len(j.tmpl.Keys) || v.EvaluatorError == ""):
		return fmt.Errorf("judge: record item %q: null scores need all keys null and an evaluator_error", r.ID)
	case nulls == 0 && v.EvaluatorError != "":
		return fmt.Errorf("judge: record item %q: evaluator_error %q with scores; an error verdict has null scores", r.ID, v.EvaluatorError)
	}
	v.Cached = false
	return j.store(j.Key(r), r, v)
}
