// Package jsonenc appends JSON values to a byte slice exactly as encoding/json encodes
// them (sorted map keys, the same string escaping and float format), without
// reflection: the JSON report of a million items and the suite's item hashes write
// through it. A value of another type is reported so the caller can fall back to
// encoding/json.
package jsonenc

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Append appends v's JSON to dst. escapeHTML escapes <, > and & as encoding/json.Marshal
// does (an Encoder with SetEscapeHTML(false) does not). ok is false, with dst
// unchanged, for a type it does not handle (or a NaN or infinite number, which
// encoding/json refuses).
func Append(dst []byte, v any, escapeHTML bool) (out []byte, ok bool) {
	n := len(dst)
	out, ok = appendValue(dst, v, escapeHTML)
	if !ok {
		return dst[:n], false
	}
	return out, true
}

func appendValue(dst []byte, v any, html bool) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return AppendString(dst, x, html), true
	case bool:
		return strconv.AppendBool(dst, x), true
	case float64:
		return AppendFloat(dst, x)
	case int:
		return strconv.AppendInt(dst, int64(x), 10), true
	case int64:
		return strconv.AppendInt(dst, x, 10), true
	case json.RawMessage:
		if x == nil {
			return append(dst, "null"...), true
		}
		return append(dst, x...), true
	case []any:
		if x == nil {
			return append(dst, "null"...), true
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendValue(dst, e, html); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	case []string:
		if x == nil {
			return append(dst, "null"...), true
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, e, html)
		}
		return append(dst, ']'), true
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), true
		}
		return appendMap(dst, x, html)
	case map[string]string:
		if x == nil {
			return append(dst, "null"...), true
		}
		return appendMap(dst, x, html)
	case map[string]float64:
		if x == nil {
			return append(dst, "null"...), true
		}
		return appendMap(dst, x, html)
	}
	return dst, false
}

func appendMap[V any](dst []byte, m map[string]V, html bool) ([]byte, bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, k, html)
		dst = append(dst, ':')
		var ok bool
		if dst, ok = appendValue(dst, any(m[k]), html); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// AppendFloat appends f formatted as encoding/json's float64 encoder does; ok is false,
// with dst unchanged, for a NaN or an infinity.
func AppendFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' { // e-09 → e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string, escaped as encoding/json escapes it.
func AppendString(dst []byte, s string, html bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && (!html || (b != '<' && b != '>' && b != '&')) {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
