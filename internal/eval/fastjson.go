package eval

import (
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The fast record decoder reads a results line in one pass over one string made of it:
// a string value without escapes is a slice of that string (no allocation of its
// own), numbers and literals are parsed in place. It takes only what it is sure of:
// valid JSON that encoding/json decodes to the very same values. Anything else
// (a syntax error, a number out of range, a repeated top-level key, invalid UTF-8,
// deep nesting) makes it give up, and the line takes the full path (decodeRecord,
// newResult), whose checks and error messages are the ones users see.

// fastMaxDepth bounds the nesting the fast decoder takes; deeper records take the full
// path (which has the depth limit and its message).
const fastMaxDepth = 64

// jsonScan walks one JSON text held as a string.
type jsonScan struct {
	s     string
	i     int
	depth int
	buf   []byte // scratch for strings with escapes
	// discard checks values without building them (value returns nil): a key nothing
	// reads is validated, not decoded.
	discard bool
	// paths, when not nil, names the keys of the object at hand to build (and theirs);
	// the others are discarded (DecodeObjectPathsFast).
	paths Paths
	// scratch, when not nil, lends the maps of the objects paths filters.
	scratch *Scratch
}

func (d *jsonScan) ws() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// str reads the string at d.i (its opening quote) as encoding/json decodes it.
func (d *jsonScan) str() (string, bool) {
	v, end, ok := unquote(d.s, d.i, &d.buf, d.discard)
	d.i = end
	return v, ok
}

// unquote decodes the JSON string whose opening quote is s[i], returning its value and
// the index after its closing quote. A string without escapes is a slice of s; with
// check set, a string with escapes is only checked and "" returned.
func unquote(s string, i int, buf *[]byte, check bool) (string, int, bool) {
	high := false
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == '"':
			v := s[i+1 : j]
			if high && !utf8.ValidString(v) {
				return "", j, false
			}
			return v, j + 1, true
		case c == '\\':
			return unquoteEscaped(s, i, buf, check)
		case c < 0x20:
			return "", j, false
		case c >= utf8.RuneSelf:
			high = true
		}
	}
	return "", len(s), false
}

// unquoteEscaped is unquote for a string with escapes, decoded as encoding/json does:
// a lone or reversed surrogate becomes U+FFFD.
func unquoteEscaped(s string, i int, buf *[]byte, check bool) (string, int, bool) {
	b := (*buf)[:0]
	defer func() { *buf = b[:0] }()
	for j := i + 1; j < len(s); {
		c := s[j]
		switch {
		case c == '"':
			if !utf8.Valid(b) {
				return "", j, false
			}
			if check {
				return "", j + 1, true
			}
			return string(b), j + 1, true
		case c < 0x20:
			return "", j, false
		case c != '\\':
			b = append(b, c)
			j++
			continue
		}
		if j+1 >= len(s) {
			return "", j, false
		}
		switch e := s[j+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(s, j+2)
			if r < 0 {
				return "", j, false
			}
			j += 6
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if j+1 < len(s) && s[j] == '\\' && s[j+1] == 'u' {
					r2 = hex4(s, j+2)
				}
				if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
					r = dec
					j += 6
				} else {
					r = unicode.ReplacementChar
				}
			}
			b = utf8.AppendRune(b, r)
			continue
		default:
			return "", j, false
		}
		j += 2
	}
	return "", len(s), false
}

// hex4 reads four hex digits at s[i:], or returns -1.
func hex4(s string, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// numEnd returns the end of the JSON number at s[i:] (RFC 8259 grammar).
func numEnd(s string, i int) (int, bool) {
	j := i
	if j < len(s) && s[j] == '-' {
		j++
	}
	digits := func() bool {
		k := j
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		return j > k
	}
	switch {
	case j < len(s) && s[j] == '0':
		j++
	case !digits():
		return j, false
	}
	if j < len(s) && s[j] == '.' {
		j++
		if !digits() {
			return j, false
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if !digits() {
			return j, false
		}
	}
	return j, true
}

// number reads the number at d.i as a float64, as encoding/json does into an any.
func (d *jsonScan) number() (float64, bool) {
	end, ok := numEnd(d.s, d.i)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(d.s[d.i:end], 64)
	d.i = end
	return f, err == nil
}

// literal reads true, false or null at d.i.
func (d *jsonScan) literal(word string) bool {
	if len(d.s)-d.i < len(word) || d.s[d.i:d.i+len(word)] != word {
		return false
	}
	d.i += len(word)
	return true
}

// value decodes the value at d.i into encoding/json's types for an any: string,
// float64, bool, nil, []any, map[string]any.
func (d *jsonScan) value() (any, bool) {
	d.ws()
	if d.i >= len(d.s) {
		return nil, false
	}
	switch c := d.s[d.i]; c {
	case '"':
		s, ok := d.str()
		if d.discard {
			return nil, ok
		}
		return s, ok
	case '{':
		return d.object()
	case '[':
		return d.array()
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.literal("null")
	}
	f, ok := d.number() // parsed even when discarded: a number out of range is refused
	if d.discard {
		return nil, ok
	}
	return f, ok
}

func (d *jsonScan) object() (any, bool) {
	if d.depth++; d.depth > fastMaxDepth {
		return nil, false
	}
	defer func() { d.depth-- }()
	var m map[string]any
	switch {
	case d.discard:
	case d.paths != nil && d.scratch != nil:
		m = d.scratch.get()
	default:
		m = map[string]any{}
	}
	d.i++ // '{'
	d.ws()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return m, true
	}
	for {
		d.ws()
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.ws()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, false
		}
		d.i++
		paths := d.paths
		sub, want := paths[k]
		if paths != nil && !d.discard {
			if want {
				d.paths = sub
			} else {
				d.discard = true
			}
		}
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		if m != nil && (paths == nil || want) {
			m[k] = v // a repeated key inside a value: the last wins, as in encoding/json
		}
		if paths != nil && !want && m != nil {
			d.discard = false
		}
		d.paths = paths
		if !d.next('}') {
			return nil, false
		}
		if d.s[d.i-1] == '}' {
			return m, true
		}
	}
}

func (d *jsonScan) array() (any, bool) {
	if d.depth++; d.depth > fastMaxDepth {
		return nil, false
	}
	defer func() { d.depth-- }()
	var a []any
	if !d.discard {
		a = make([]any, 0) // encoding/json gives an empty, non-nil list for []
	}
	d.i++ // '['
	d.ws()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return a, true
	}
	for {
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		if !d.discard {
			a = append(a, v)
		}
		if !d.next(']') {
			return nil, false
		}
		if d.s[d.i-1] == ']' {
			return a, true
		}
	}
}

// next consumes the ',' or the closing byte after a member or element.
func (d *jsonScan) next(closing byte) bool {
	d.ws()
	if d.i >= len(d.s) {
		return false
	}
	if c := d.s[d.i]; c == ',' || c == closing {
		d.i++
		return true
	}
	return false
}
