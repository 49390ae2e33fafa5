package rubric

import "regexp"

// regexScorer passes when the output matches a regular expression (RE2 syntax).
type regexScorer struct{ re *regexp.Regexp }

func init() {
	register("regex", "binary", true, func(d *Dimension, _ *Env) (Scorer, error) {
		if d.Pattern == "" {
			return nil, optErr(d, "needs `pattern:`, a regular expression (RE2 syntax)")
		}
		re, err := regexp.Compile(d.Pattern)
		if err != nil {
			return nil, optErr(d, "pattern: %v", err)
		}
		return &regexScorer{re: re}, nil
	})
}

func (s *regexScorer) Score(in *Input) (Value, error) {
	if in.TextErr != "" {
		return binary(false, in.TextErr), nil
	}
	return binary(s.re.MatchString(in.Text), "pattern did not match"), nil
}
