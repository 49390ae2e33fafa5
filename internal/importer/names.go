package importer

import (
	"strings"
	"unicode"
)

// maxNameLen is the longest dimension name the rubric takes.
const maxNameLen = 64

// Ident makes a tool's score name into a dimension name: lowercase letters, digits and
// underscores, starting with a letter ("Tone Score" → "tone_score", "pass@1" → "pass_1",
// "3way" → "m_3way"). Empty or symbol-only names become "score".
func Ident(name string) string {
	if isIdent(name) {
		return name // most are already ("icontains", "exact_match"): no copy for every record
	}
	return identOf(name)
}

// identOf is Ident made character by character.
func identOf(name string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(name) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
			continue
		}
		under = true
	}
	s := b.String()
	if s == "" {
		return "score"
	}
	if s[0] < 'a' || s[0] > 'z' {
		s = "m_" + s
	}
	if len(s) > maxNameLen {
		s = strings.TrimRight(s[:maxNameLen], "_")
	}
	return s
}

// isIdent says whether Ident gives name back as it is: lowercase ASCII letters, digits
// and single underscores between them, starting with a letter, at most maxNameLen long.
func isIdent(name string) bool {
	if name == "" || len(name) > maxNameLen || name[0] < 'a' || name[0] > 'z' || name[len(name)-1] == '_' {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '_' && name[i-1] != '_':
		default:
			return false
		}
	}
	return true
}
