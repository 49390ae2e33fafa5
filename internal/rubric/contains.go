package rubric

// containsScorer is seed 000's normalized substring match: every expected string must
// appear in the normalized output.
type containsScorer struct {
	d    *Dimension
	norm normalizer
	// paths where the reference answers are looked up, in order
	paths []string
}

func init() {
	register("contains", "binary", true, func(d *Dimension, _ *Env) (Scorer, error) {
		return &containsScorer{d: d, norm: newNormalizer(d.Normalization, true), paths: []string{"expected_contains", "expected"}}, nil
	})
	register("exact", "binary", true, func(d *Dimension, _ *Env) (Scorer, error) {
		n := newNormalizer(d.Normalization, false)
		if d.Normalization != nil && d.Normalization.Substring != nil && *d.Normalization.Substring {
			return nil, optErr(d, "normalization.substring is not available for exact; use scorer contains")
		}
		return &containsScorer{d: d, norm: n, paths: []string{"expected"}}, nil
	})
}

func (s *containsScorer) Score(in *Input) (Value, error) {
	want, err := expectedStrings(in, s.d, s.paths...)
	if err != nil {
		return Value{}, err
	}
	if in.TextErr != "" {
		return binary(false, in.TextErr), nil
	}
	if why := s.norm.miss(in.Text, want); why != "" {
		return binary(false, why), nil
	}
	return binary(true, ""), nil
}
