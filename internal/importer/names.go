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
