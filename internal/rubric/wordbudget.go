package rubric

import (
	"fmt"
	"strings"
)

// wordBudget passes when the output has at most MaxWords words (runs of non-space).
type wordBudget struct{ max int }

func init() {
	register("word_budget", "binary", true, func(d *Dimension, _ *Env) (Scorer, error) {
		if d.MaxWords <= 0 {
			return nil, optErr(d, "needs `max_words:` > 0 (seed 000: 30)")
		}
		return &wordBudget{max: d.MaxWords}, nil
	})
}

func (s *wordBudget) Score(in *Input) (Value, error) {
	if in.TextErr != "" {
		return binary(false, in.TextErr), nil
	}
	n := len(strings.Fields(in.Text))
	return binary(n <= s.max, fmt.Sprintf("%d words > %d", n, s.max)), nil
}
