package rubric

import (
	"fmt"
	"math"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// recordedScorer reads a raw value carried in the results record (`scores.<key>` or a
// top-level `<key>`), e.g. a human or external judge's 0–2 score. A null value is a
// judge error (seed 001): it counts as 0 and failing, and is counted separately. The
// record's `score_notes.<key>` (the tool's reason) is the value's note.
type recordedScorer struct {
	d     *Dimension
	scale Scale
	byMax bool
}

func init() {
	register("recorded", "", false, func(d *Dimension, _ *Env) (Scorer, error) {
		if d.Key == "" {
			d.Key = d.Name
		}
		if d.Scale == "" {
			return nil, optErr(d, "needs `scale:`; one of %s", ScaleNames())
		}
		sc := scales[d.Scale]
		return &recordedScorer{d: d, scale: sc, byMax: d.Normalize == "max"}, nil
	})
}

func (s *recordedScorer) Score(in *Input) (Value, error) {
	v, ok := in.Result.Recorded(s.d.Key)
	if !ok && s.d.Default == nil && (in.Result.Error != "" || in.Result.TimedOut) {
		return s.failed(in.Result), nil
	}
	if !ok {
		if s.d.Default == nil {
			return Value{}, fmt.Errorf("dimension %q needs the recorded value %q (in \"scores\" or at the top level); the record has none (declare `default:` to score absent values)", s.d.Name, s.d.Key)
		}
		v = s.d.Default
	}
	if v == nil {
		errName := "parse_error"
		if e, ok := in.Result.Recorded("evaluator_error"); ok {
			if es, ok := e.(string); ok && es != "" {
				errName = es
			}
		}
		note := "recorded value is null"
		if n := in.Result.ScoreNotes[s.d.Key]; n != "" {
			note += ": " + n
		}
		return Value{Error: errName, Note: note}, nil
	}
	val, err := parseRaw(v, s.scale, s.byMax, s.d.Key)
	if err == nil && ok {
		val.Note = in.Result.ScoreNotes[s.d.Key] // the tool's reason (score_notes), if it gave one
	}
	return val, err
}

// failed is the value of a sample whose system failed (an error or a timeout) before
// anything recorded the dimension's value: it fails with score 0, as every other
// scorer scores such a sample (a provider error is a failure, counted apart as an
// error), not a malformed record.
func (s *recordedScorer) failed(r *eval.Result) Value {
	why := "timed out"
	if r.Error != "" {
		why = "the system under test failed: " + r.Error
	}
	var v Value
	if s.scale.Labels {
		v = Value{Raw: ptr(0), Label: "fail"}
	} else {
		v = num(s.scale.Min, s.scale, s.byMax)
	}
	v.Norm = 0
	v.Note = "no recorded value: " + why
	return v
}

// parseRaw turns a recorded value into a Value on a scale.
func parseRaw(v any, sc Scale, byMax bool, key string) (Value, error) {
	if sc.Labels {
		str, ok := v.(string)
		if !ok {
			if b, isBool := v.(bool); isBool {
				str = map[bool]string{true: "pass", false: "fail"}[b]
			} else {
				return Value{}, fmt.Errorf("recorded value %q is %v; want pass, fail, n/a or stale", key, v)
			}
		}
		switch strings.ToLower(str) {
		case "pass":
			return Value{Raw: ptr(1), Label: "pass", Norm: 1}, nil
		case "fail":
			return Value{Raw: ptr(0), Label: "fail", Norm: 0}, nil
		case "n/a", "na":
			return Value{Label: "n/a", Excluded: true}, nil
		case "stale":
			return Value{Label: "stale", Excluded: true}, nil
		}
		return Value{}, fmt.Errorf("recorded value %q is %q; want pass, fail, n/a or stale", key, str)
	}
	f, ok := ToFloat(v)
	if !ok {
		if str, isStr := v.(string); isStr && (str == "n/a" || str == "stale") {
			return Value{Label: str, Excluded: true}, nil
		}
		return Value{}, fmt.Errorf("recorded value %q is %v; want a number on the %s scale", key, v, sc.Name)
	}
	if math.IsNaN(f) {
		return Value{}, fmt.Errorf("recorded value %q is NaN", key)
	}
	if err := sc.check(f); err != nil {
		return Value{}, fmt.Errorf("recorded value %q: %v", key, err)
	}
	return num(f, sc, byMax), nil
}

func ptr(f float64) *float64 { return &f }
