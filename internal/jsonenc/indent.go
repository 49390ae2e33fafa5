package jsonenc

import "bytes"

// AppendIndent appends src, a compact JSON value (as Append writes it), indented as
// encoding/json.Indent(dst, src, prefix, indent) writes it: each element on its own
// line after prefix and one indent per level, ": " after keys, empty objects and
// arrays kept as {} and []. It only tracks strings and brackets, where json.Indent runs
// its full scanner over every byte; src must be valid, compact JSON, which it does not
// check.
func AppendIndent(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	pending := false // an object or array just opened: its first element needs a newline
	for i := 0; i < len(src); {
		c := src[i]
		if pending && c != '}' && c != ']' {
			pending = false
			dst = appendNewline(dst, prefix, indent, depth)
		}
		switch c {
		case '"':
			j := i + 1
			for {
				k := bytes.IndexByte(src[j:], '"')
				if k < 0 {
					j = len(src) - 1
					break
				}
				j += k
				bs := 0 // backslashes right before the quote: an odd count escapes it
				for b := j - 1; b > i && src[b] == '\\'; b-- {
					bs++
				}
				if bs%2 == 0 {
					break
				}
				j++
			}
			dst = append(dst, src[i:j+1]...)
			i = j + 1
			continue
		case '{', '[':
			dst = append(dst, c)
			depth++
			pending = true
		case '}', ']':
			depth--
			if pending {
				pending = false
			} else {
				dst = appendNewline(dst, prefix, indent, depth)
			}
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			dst = appendNewline(dst, prefix, indent, depth)
		case ':':
			dst = append(dst, ':', ' ')
		default: // a number or literal: copy it up to the next delimiter
			j := i + 1
			for j < len(src) && src[j] != ',' && src[j] != '}' && src[j] != ']' {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
			continue
		}
		i++
	}
	return dst
}

func appendNewline(dst []byte, prefix, indent string, depth int) []byte {
	dst = append(dst, '\n')
	dst = append(dst, prefix...)
	for range depth {
		dst = append(dst, indent...)
	}
	return dst
}
