package rubric

import (
	"fmt"
	"strings"
)

// wordBudget passes when the output has at most MaxWords words. Words are runs of
// non-space (count: fields, the default) or, with count: js_split, what JavaScript's
// output.split(/\s+/).length gives: promptfoo users' usual assertion, which also counts
// the empty strings before leading and after trailing whitespace.
type wordBudget struct {
	max     int
	jsSplit bool
}

func init() {
	register("word_budget", "binary", true, func(d *Dimension, _ *Env) (Scorer, error) {
		if d.MaxWords <= 0 {
			return nil, optErr(d, "needs `max_words:` > 0 (e.g. 30)")
		}
		s := &wordBudget{max: d.MaxWords}
		switch d.Count {
		case "", "fields":
		case "js_split":
			s.jsSplit = true
		default:
			return nil, optErr(d, "count %q; want fields (runs of non-space) or js_split (JavaScript's output.split(/\\s+/).length)", d.Count)
		}
		return s, nil
	})
}

func (s *wordBudget) Score(in *Input) (Value, error) {
	if in.TextErr != "" {
		return binary(false, in.TextErr), nil
	}
	n := 0
	if s.jsSplit {
		n = jsSplitCount(in.Text)
	} else {
		n = len(strings.Fields(in.Text))
	}
	if n <= s.max {
		return binary(true, ""), nil
	}
	return binary(false, fmt.Sprintf("%d words > %d", n, s.max)), nil
}

// jsSplitCount is JavaScript's s.split(/\s+/).length: one more than the number of runs
// of whitespace ("" gives 1, " a b " gives 4).
func jsSplitCount(s string) int {
	n, in := 1, false
	for _, r := range s {
		sp := isJSSpace(r)
		if sp && !in {
			n++
		}
		in = sp
	}
	return n
}

// isJSSpace is JavaScript's \s: WhiteSpace and LineTerminator of ECMA-262.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
