package rubric

import "fmt"

// latencyScorer is seed 001 §3.2's latency_norm = min(1, target / max(latency, 1)).
type latencyScorer struct {
	d      *Dimension
	field  string
	target float64
}

// tokensScorer is seed 001 §3.2's token_efficiency_norm = min(1, target / max(total_tokens, 1)).
type tokensScorer struct {
	d      *Dimension
	target float64
}

func init() {
	register("latency", "unit", false, func(d *Dimension, _ *Env) (Scorer, error) {
		f := d.Field
		if f == "" {
			f = "latency_e2e_ms"
		}
		if f != "latency_e2e_ms" && f != "latency_model_ms" {
			return nil, optErr(d, "field %q; want latency_e2e_ms or latency_model_ms", f)
		}
		if d.Target <= 0 {
			return nil, optErr(d, "needs `target:` in ms > 0 (e.g. 3000)")
		}
		return &latencyScorer{d: d, field: f, target: d.Target}, nil
	})
	register("tokens", "unit", false, func(d *Dimension, _ *Env) (Scorer, error) {
		if d.Target <= 0 {
			return nil, optErr(d, "needs `target:` in tokens > 0 (e.g. 2000)")
		}
		return &tokensScorer{d: d, target: d.Target}, nil
	})
}

func (s *latencyScorer) Score(in *Input) (Value, error) {
	p := in.Result.LatencyE2EMs
	if s.field == "latency_model_ms" {
		p = in.Result.LatencyModelMs
	}
	var ms float64
	switch {
	case p != nil:
		ms = *p
	case s.d.Default != nil:
		d, ok := ToFloat(s.d.Default)
		if !ok {
			return Value{}, fmt.Errorf("dimension %q: default must be a number of ms", s.d.Name)
		}
		ms = d
	default:
		return Value{}, fmt.Errorf("dimension %q needs %q on every result; the record has none (declare `default:` on the dimension to score absent values)", s.d.Name, s.field)
	}
	return ratioValue(s.target, ms), nil
}

func (s *tokensScorer) Score(in *Input) (Value, error) {
	total, ok := in.Result.TotalTokens()
	if !ok {
		if s.d.Default == nil {
			return Value{}, fmt.Errorf("dimension %q needs input_tokens and output_tokens on every result; the record lacks them (declare `default:` on the dimension to score absent values)", s.d.Name)
		}
		d, ok := ToFloat(s.d.Default)
		if !ok {
			return Value{}, fmt.Errorf("dimension %q: default must be a number of tokens", s.d.Name)
		}
		total = d
	}
	return ratioValue(s.target, total), nil
}

// ratioValue is min(1, target / max(x, 1)) on the unit scale.
func ratioValue(target, x float64) Value {
	v := target / max(x, 1)
	if v > 1 {
		v = 1
	}
	return num(v, scales["unit"], false)
}

// ToFloat reads a number decoded from YAML or JSON (float64 or an integer type).
func ToFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
}
