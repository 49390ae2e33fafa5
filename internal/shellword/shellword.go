// Package shellword quotes the arguments of the commands evalgate prints (the reproduce
// line, the settle hint, the baseline hints): each is pasted into a shell by someone,
// so an argument that the shell would split or expand (a glob, an id with a space, a
// quote) is quoted for POSIX sh.
package shellword

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// safe matches the arguments a POSIX shell leaves as they are.
var safe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// Quote is s as one POSIX shell word: as it is when nothing in it is special, else in
// single quotes. A single quote inside closes them, is written escaped, and reopens
// them. A backtick inside is written as the output of printf '\140' in double quotes,
// so the word holds no backtick: the reports print commands in code spans, which a
// backtick would end (an item id may hold one).
//
// A character no report shows as it is (a tab, newline or other control character, a
// bidi or tag character, a byte that is not UTF-8: every renderer makes those visible
// as `\x09`, `U+202E` or a space, which the shell would read as text) is written the
// same way, as printf's octal escapes of its bytes, so the printed word holds only
// characters a report keeps. Command substitution drops trailing newlines, so a run of
// such characters is printed together with the character after it; a run ending the
// word that holds a newline stays in the single quotes as it is (it still parses).
func Quote(s string) string {
	if safe.MatchString(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\'':
			b.WriteString(`'\''`)
		case r == '`':
			b.WriteString(`'"$(printf '\140')"'`)
		case hidden(r, size):
			j := i + size
			for j < len(s) {
				r2, size2 := utf8.DecodeRuneInString(s[j:])
				if !hidden(r2, size2) {
					break
				}
				j += size2
			}
			run := s[i:j]
			if j < len(s) {
				_, next := utf8.DecodeRuneInString(s[j:])
				j += next // a trailing newline of the run would be dropped: carry the next character
				run = s[i:j]
			} else if strings.HasSuffix(run, "\n") {
				b.WriteString(run) // at the end, printf's output would lose it: kept as it is
				i = j
				continue
			}
			b.WriteString(`'"$(printf '`)
			for k := 0; k < len(run); k++ {
				fmt.Fprintf(&b, `\%03o`, run[k])
			}
			b.WriteString(`')"'`)
			i = j
			continue
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

// hidden reports whether a rune (of the given encoded size) is one a report would not
// show as it is: a C0 or C1 control character (tab and newline included), DEL, a bidi
// control, a Unicode tag character, the line and paragraph separators, or a byte that
// is not UTF-8 (report.Visible's set, with tab, newline and U+2028/9 added).
func hidden(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size <= 1:
		return true
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// Flag is "--flag value" with the value quoted for the shell.
func Flag(flag, value string) string { return flag + " " + Quote(value) }
