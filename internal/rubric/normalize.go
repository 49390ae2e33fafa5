package rubric

import "strings"

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

// match reports whether the output satisfies the expected strings: with substring
// matching every expected string must appear; otherwise the output must equal one.
func (n normalizer) match(output string, expected []string) bool {
	out := n.apply(output)
	if n.substring {
		for _, e := range expected {
			if !strings.Contains(out, n.apply(e)) {
				return false
			}
		}
		return len(expected) > 0
	}
	for _, e := range expected {
		if out == n.apply(e) {
			return true
		}
	}
	return false
}
