package rubric

import (
	"fmt"
	"strings"
)

// normalizer applies seed 000's normalization steps.
type normalizer struct {
	trim, lower, stripPeriod, substring bool
}

func newNormalizer(n *Normalization, substringDefault bool) normalizer {
	on := func(p *bool, def bool) bool {
		if p == nil {
			return def
		}
		return *p
	}
	if n == nil {
		n = &Normalization{}
	}
	return normalizer{
		trim:        on(n.Trim, true),
		lower:       on(n.Lowercase, true),
		stripPeriod: on(n.StripPeriod, true),
		substring:   on(n.Substring, substringDefault),
	}
}

// apply runs the steps in seed 000's order: trim, lowercase, strip one trailing period.
func (n normalizer) apply(s string) string {
	if n.trim {
		s = strings.TrimSpace(s)
	}
	if n.lower {
		s = strings.ToLower(s)
	}
	if n.stripPeriod {
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// miss says why the output does not match, or "" when it does. With substring on (the
// contains scorer) every expected string must appear, and the first missing one is
// named; with it off (exact), the output must equal one of them.
func (n normalizer) miss(output string, expected []string) string {
	out := n.apply(output)
	if n.substring {
		if len(expected) == 0 {
			return "no expected text"
		}
		for _, e := range expected {
			if !strings.Contains(out, n.apply(e)) {
				return fmt.Sprintf("output does not contain %q", e)
			}
		}
		return ""
	}
	for _, e := range expected {
		if out == n.apply(e) {
			return ""
		}
	}
	return "output is not equal to any expected value"
}
