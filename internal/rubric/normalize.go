package rubric

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
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

// miss says why the output does not match, or "" when it does. With substring on (the
// contains scorer) every expected string must appear, and the first missing one is
// named; with it off (exact), the output must equal one of them. A match allocates
// nothing (normalizeTest's AllocsPerRun); only a miss builds its message.
func (n normalizer) miss(output string, expected []string) string {
	if n.substring && len(expected) == 0 {
		return "no expected text"
	}
	i := n.firstMiss(output, expected)
	switch {
	case i < 0:
		return ""
	case n.substring:
		return fmt.Sprintf("output does not contain %q", expected[i])
	}
	return "output is not equal to any expected value"
}

// firstMiss is the matching of miss without its message: with substring on, the index
// of the first expected string the normalized output does not contain, or -1; with it
// off, -1 when the normalized output equals one of them, else 0.
//
// The steps are seed 000's, in its order (trim, lowercase, strip one trailing period),
// computed exactly as strings.TrimSpace, strings.ToLower and strings.TrimSuffix would,
// without allocating: lowercased text goes to pooled buffers.
func (n normalizer) firstMiss(output string, expected []string) int {
	var sc *normScratch
	if n.lower {
		sc = normScratchPool.Get().(*normScratch)
		defer sc.release()
	}
	var out []byte
	outStr := n.pre(output)
	if n.lower {
		sc.out = appendLower(sc.out[:0], outStr)
		out = n.post(sc.out)
	} else {
		outStr = n.postString(outStr)
	}
	for i, e := range expected {
		var hit bool
		eStr := n.pre(e)
		if n.lower {
			sc.exp = appendLower(sc.exp[:0], eStr)
			eb := n.post(sc.exp)
			if n.substring {
				hit = bytes.Contains(out, eb)
			} else {
				hit = bytes.Equal(out, eb)
			}
		} else {
			eStr = n.postString(eStr)
			if n.substring {
				hit = strings.Contains(outStr, eStr)
			} else {
				hit = outStr == eStr
			}
		}
		switch {
		case n.substring && !hit:
			return i
		case !n.substring && hit:
			return -1
		}
	}
	if n.substring {
		return -1
	}
	return 0
}

// pre is the step before lowercasing: trim.
func (n normalizer) pre(s string) string {
	if n.trim {
		s = strings.TrimSpace(s)
	}
	return s
}

// post is the step after lowercasing: strip one trailing period.
func (n normalizer) post(b []byte) []byte {
	if n.stripPeriod {
		b = bytes.TrimSuffix(b, []byte("."))
	}
	return b
}

func (n normalizer) postString(s string) string {
	if n.stripPeriod {
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// appendLower appends s lowercased byte for byte as strings.ToLower returns it: ASCII
// letters folded; any other rune through unicode.ToLower, re-encoded; each byte of
// invalid UTF-8 as U+FFFD (strings.Map's rule, which ToLower uses for non-ASCII text).
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		i += w
	}
	return dst
}

// normScratch holds the lowercased output and expected string of one firstMiss call.
type normScratch struct{ out, exp []byte }

// normScratchPool reuses the buffers across calls (scoring may run on several
// goroutines).
var normScratchPool = sync.Pool{New: func() any { return &normScratch{} }}

// maxKeptScratch bounds the buffers returned to the pool: one huge output must not pin
// its copy.
const maxKeptScratch = 1 << 20

func (sc *normScratch) release() {
	if cap(sc.out) > maxKeptScratch {
		sc.out = nil
	}
	if cap(sc.exp) > maxKeptScratch {
		sc.exp = nil
	}
	normScratchPool.Put(sc)
}
