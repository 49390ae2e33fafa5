package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"

	"github.com/evalgate/evalgate/internal/jsonenc"
)

// canonical re-encodes a JSON text the fast decoder accepted into the bytes
// json.Marshal writes for its decoded value: object keys sorted (a repeated key
// inside a value keeps its last value, as decoding does), strings escaped as
// encoding/json escapes them (HTML characters included), numbers in its float64
// format, no whitespace. From the raw line it hashes an item's fields without building
// them as a map and re-encoding it (hashFields), with the same result.
type canonical struct {
	out     []byte
	members []member
	buf     []byte // unquoted strings
	scratch []byte // an object's members while they are put in order
}

// member is one key of an object and its bytes in the output ("key":value).
type member struct {
	key      string
	from, to int
}

var canonicals = sync.Pool{New: func() any { return new(canonical) }}

// itemHashOfLine is hashFields of the item fields a results line carries: every
// top-level key but the typed result keys, plus its id. line is a record the fast
// decoder accepted (valid JSON, no repeated top-level key).
func itemHashOfLine(line string) string {
	c := canonicals.Get().(*canonical)
	defer canonicals.Put(c)
	c.out = c.out[:0]
	c.members = c.members[:0]
	c.object(line, 0, true)
	sum := sha256.Sum256(c.out)
	if cap(c.out) > 1<<20 {
		c.out, c.scratch = nil, nil // keep the scratch small between lines
	}
	var h [64]byte
	hex.Encode(h[:], sum[:])
	return string(h[:])
}

// value appends the canonical form of the value at s[i] and returns its end.
func (c *canonical) value(s string, i int) int {
	i = skipWS(s, i)
	switch s[i] {
	case '{':
		return c.object(s, i, false)
	case '[':
		c.out = append(c.out, '[')
		i = skipWS(s, i+1)
		if s[i] == ']' {
			c.out = append(c.out, ']')
			return i + 1
		}
		for n := 0; ; n++ {
			if n > 0 {
				c.out = append(c.out, ',')
			}
			i = skipWS(s, c.value(s, i))
			i++ // ',' or ']'
			if s[i-1] == ']' {
				c.out = append(c.out, ']')
				return i
			}
		}
	case '"':
		if end := plainEnd(s, i); end > 0 {
			c.out = append(c.out, s[i:end]...) // written as encoding/json writes it
			return end
		}
		v, end, _ := unquote(s, i, &c.buf, false)
		c.out = jsonenc.AppendString(c.out, v, true)
		return end
	case 't':
		c.out = append(c.out, "true"...)
		return i + 4
	case 'f':
		c.out = append(c.out, "false"...)
		return i + 5
	case 'n':
		c.out = append(c.out, "null"...)
		return i + 4
	}
	end, _ := numEnd(s, i)
	if smallInt(s[i:end]) {
		c.out = append(c.out, s[i:end]...) // json.Marshal writes it back the same
		return end
	}
	f, _ := strconv.ParseFloat(s[i:end], 64)
	c.out, _ = jsonenc.AppendFloat(c.out, f)
	return end
}

// plainBytes are the bytes encoding/json writes in a string as they are (with HTML
// escaping): printable ASCII but the quote, the backslash and <, >, &, and the bytes
// of multi-byte UTF-8 (valid: the fast decoder checked it) but U+2028 and U+2029.
var plainBytes = func() (t [256]bool) {
	for b := 0x20; b < 0x100; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// plainEnd returns the end of the string at s[i] when every byte of it is written as
// it is, else 0. The string is valid UTF-8.
func plainEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		b := s[j]
		if b == '"' {
			return j + 1
		}
		if !plainBytes[b] {
			return 0
		}
		if b == 0xE2 && j+2 < len(s) && s[j+1] == 0x80 && (s[j+2] == 0xA8 || s[j+2] == 0xA9) {
			return 0 // U+2028, U+2029: escaped
		}
	}
	return 0
}

// smallInt reports whether a JSON number is an integer of at most 15 digits without
// leading zeros (or -0): one float64 holds exactly and encoding/json writes as it is.
func smallInt(n string) bool {
	if n != "" && n[0] == '-' {
		n = n[1:]
	}
	if n == "" || len(n) > 15 || (n[0] == '0' && len(n) > 1) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// object appends the canonical form of the object at s[i] and returns its end. At the
// top level (an item's record) only the item's fields are kept. Members are written in
// the order read, each one's bytes noted; only when their keys are not already in
// strictly increasing order are they sorted and the object's bytes rewritten.
func (c *canonical) object(s string, i int, top bool) int {
	base := len(c.members)
	c.out = append(c.out, '{')
	body := len(c.out)
	i = skipWS(s, i+1)
	if s[i] == '}' {
		c.out = append(c.out, '}')
		return i + 1
	}
	sorted := true
	var end int
	for {
		var k string
		j := plainEnd(s, i)
		plain := j > 0
		if plain {
			k = s[i+1 : j-1]
		} else {
			k, j, _ = unquote(s, i, &c.buf, false)
		}
		j = skipWS(s, j) + 1 // ':'
		if top && k != "id" && resultKeys[k] {
			j = skipValue(s, j) // not an item field
		} else {
			if len(c.members) > base {
				c.out = append(c.out, ',')
				sorted = sorted && c.members[len(c.members)-1].key < k
			}
			from := len(c.out)
			if plain {
				c.out = append(c.out, '"')
				c.out = append(c.out, k...)
				c.out = append(c.out, '"', ':')
			} else {
				c.out = jsonenc.AppendString(c.out, k, true)
				c.out = append(c.out, ':')
			}
			j = c.value(s, j)
			c.members = append(c.members, member{k, from, len(c.out)})
		}
		j = skipWS(s, j)
		if s[j] == '}' {
			end = j + 1
			break
		}
		i = skipWS(s, j+1)
	}
	if ms := c.members[base:]; !sorted {
		sortMembers(ms)
		c.scratch = append(c.scratch[:0], c.out[body:]...)
		c.out = c.out[:body]
		for n, m := range ms {
			if n+1 < len(ms) && ms[n+1].key == m.key {
				continue // the last of a repeated key wins
			}
			if len(c.out) > body {
				c.out = append(c.out, ',')
			}
			c.out = append(c.out, c.scratch[m.from-body:m.to-body]...)
		}
	}
	c.out = append(c.out, '}')
	c.members = c.members[:base]
	return end
}

// sortMembers sorts an object's members by key, keeping the order of equal keys (an
// insertion sort: objects are small).
func sortMembers(ms []member) {
	for i := 1; i < len(ms); i++ {
		x := ms[i]
		j := i
		for j > 0 && ms[j-1].key > x.key {
			ms[j] = ms[j-1]
			j--
		}
		ms[j] = x
	}
}

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the (valid) value at s[i].
func skipValue(s string, i int) int {
	i = skipWS(s, i)
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for ; i < len(s); i++ {
			switch s[i] {
			case '"':
				i = skipString(s, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	case 't', 'n':
		return i + 4
	case 'f':
		return i + 5
	}
	end, _ := numEnd(s, i)
	return end
}

// skipString returns the index after the closing quote of the string at s[i].
func skipString(s string, i int) int {
	for j := i + 1; ; {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			return len(s)
		}
		j += k
		bs := 0 // backslashes right before the quote: an odd count escapes it
		for bs < j-i-1 && s[j-1-bs] == '\\' {
			bs++
		}
		if bs%2 == 0 {
			return j + 1
		}
		j++
	}
}
