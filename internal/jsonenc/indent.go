package jsonenc

// AppendIndent appends src, a compact JSON value (as Append writes it), indented as encoding/json.Indent(dst,
// src, prefix, indent) writes it: each element on its own line after prefix and one
// indent per level, ": " after keys, empty objects and arrays kept as {} and []. It
// only tracks strings and brackets, where json.Indent runs its full scanner over every
// byte; src must be valid JSON (as Append writes it), which it does not check.
func AppendIndent(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	pending := false // an object or array just opened: its first element needs a newline
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if pending && c != '}' && c != ']' {
			pending = false
			newline()
		}
		switch c {
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			end := min(j+1, len(src))
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			dst = append(dst, c)
			depth++
			pending = true
		case '}', ']':
			depth--
			if pending {
				pending = false
			} else {
				newline()
			}
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
