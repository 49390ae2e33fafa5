package baseline

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// itemParser reads an item line in the exact shape Encode writes it (known keys, each
// once, no spaces, no escapes, plain numbers) without reflection, several times faster
// than encoding/json: a million-item baseline is read in a second or two. Anything else
// makes it give up, and the strict decoder reads the line (and words any error).
type itemParser struct {
	buf  []byte
	pos  int
	keys map[string]string // dimension names, shared by every item
}

// parse fills it from line; false means "not the canonical shape": decode it strictly.
func (p *itemParser) parse(line []byte, it *Item) bool {
	*it = Item{}
	p.buf, p.pos = line, 0
	if !p.byte('{') {
		return false
	}
	var seen uint16
	for first := true; ; first = false {
		if p.byte('}') {
			break
		}
		if !first && !p.byte(',') {
			return false
		}
		key, ok := p.str()
		if !ok || !p.byte(':') {
			return false
		}
		bit, ok := itemKeys[string(key)]
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		switch bit {
		case keyID:
			ok = p.strInto(&it.ID)
		case keyHash:
			ok = p.strInto(&it.Hash)
		case keyPassBits:
			ok = p.strInto(&it.PassBits)
		case keyTags:
			ok = p.tags(&it.Tags)
		case keyRuns:
			ok = p.int(&it.Runs)
		case keyScore:
			ok = p.float(&it.Score)
		case keyScoreStd:
			ok = p.float(&it.ScoreStd)
		case keyPassRate:
			ok = p.float(&it.PassRate)
		case keyBreakdown:
			ok = p.floats(&it.Breakdown)
		case keyBreakdownStd:
			ok = p.floats(&it.BreakdownStd)
		}
		if !ok {
			return false
		}
	}
	return p.pos == len(p.buf)
}

const (
	keyID uint16 = 1 << iota
	keyHash
	keyTags
	keyRuns
	keyScore
	keyScoreStd
	keyPassRate
	keyPassBits
	keyBreakdown
	keyBreakdownStd
)

// itemKeys are Item's JSON names.
var itemKeys = map[string]uint16{"id": keyID, "hash": keyHash, "tags": keyTags, "runs": keyRuns, "score": keyScore,
	"score_std": keyScoreStd, "pass_rate": keyPassRate, "pass_bits": keyPassBits, "breakdown": keyBreakdown,
	"breakdown_std": keyBreakdownStd}

func (p *itemParser) byte(c byte) bool {
	if p.pos < len(p.buf) && p.buf[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// null reads a null (a list or object left nil).
func (p *itemParser) null() bool {
	if bytes.HasPrefix(p.buf[p.pos:], []byte("null")) {
		p.pos += 4
		return true
	}
	return false
}

// str reads a string without escapes or control characters, valid UTF-8.
func (p *itemParser) str() ([]byte, bool) {
	if !p.byte('"') {
		return nil, false
	}
	start := p.pos
	end := bytes.IndexByte(p.buf[start:], '"')
	if end < 0 {
		return nil, false
	}
	s := p.buf[start : start+end]
	ascii := true
	for _, c := range s {
		if c < 0x20 || c == '\\' {
			return nil, false
		}
		ascii = ascii && c < utf8.RuneSelf
	}
	if !ascii && !utf8.Valid(s) {
		return nil, false
	}
	p.pos = start + end + 1
	return s, true
}

func (p *itemParser) strInto(dst *string) bool {
	s, ok := p.str()
	if ok {
		*dst = string(s)
	}
	return ok
}

func (p *itemParser) tags(dst *[]string) bool {
	if p.null() {
		return true
	}
	if !p.byte('[') {
		return false
	}
	*dst = []string{} // [] decodes to an empty list, not nil
	for first := true; ; first = false {
		if p.byte(']') {
			return true
		}
		if !first && !p.byte(',') {
			return false
		}
		s, ok := p.str()
		if !ok {
			return false
		}
		*dst = append(*dst, string(s))
	}
}

// number reads a JSON number's bytes, checking its grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *itemParser) number() ([]byte, bool, bool) {
	b, i := p.buf, p.pos
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	start := i
	if n := digits(); n == 0 || n > 1 && b[start] == '0' {
		return nil, false, false
	}
	integer := true
	if i < len(b) && b[i] == '.' {
		i++
		integer = false
		if digits() == 0 {
			return nil, false, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		integer = false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, false, false
		}
	}
	s := b[p.pos:i]
	p.pos = i
	return s, integer, true
}

func (p *itemParser) float(dst *float64) bool {
	s, _, ok := p.number()
	if !ok {
		return false
	}
	v, err := strconv.ParseFloat(string(s), 64)
	*dst = v
	return err == nil
}

func (p *itemParser) int(dst *int) bool {
	s, integer, ok := p.number()
	if !ok || !integer {
		return false
	}
	v, err := strconv.ParseInt(string(s), 10, 0)
	*dst = int(v)
	return err == nil
}

// floats reads an object of numbers; its keys (dimension names) are shared.
func (p *itemParser) floats(dst *map[string]float64) bool {
	if p.null() {
		return true
	}
	if !p.byte('{') {
		return false
	}
	m := map[string]float64{}
	for first := true; ; first = false {
		if p.byte('}') {
			*dst = m
			return true
		}
		if !first && !p.byte(',') {
			return false
		}
		k, ok := p.str()
		if !ok || !p.byte(':') {
			return false
		}
		if _, dup := m[string(k)]; dup {
			return false
		}
		name, ok := p.keys[string(k)]
		if !ok {
			if p.keys == nil {
				p.keys = map[string]string{}
			}
			if len(p.keys) < 1024 {
				name = string(k)
				p.keys[name] = name
			} else {
				name = string(k)
			}
		}
		var v float64
		if !p.float(&v) {
			return false
		}
		m[name] = v
	}
}
