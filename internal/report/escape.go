package report

import (
	"strings"
	"unicode/utf8"
)

// mdEscaper neutralizes untrusted text (model outputs, item prompts and ids) before it
// enters markdown: no broken tables (|, newlines), no code spans, no HTML or hidden
// markers (<, >, &), no @-mentions, no links or emphasis.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "@", "&#64;", "#", `\#`, "~", `\~`,
	"\r\n", " ", "\n", " ", "\r", " ", "\t", " ",
)

// Escape makes untrusted text safe inside a markdown table cell or paragraph.
func Escape(s string) string { return mdEscaper.Replace(s) }

// EscapeTrunc escapes s after cutting it to n runes (with an ellipsis).
func EscapeTrunc(s string, n int) string { return Escape(Truncate(s, n)) }

// Truncate cuts s to at most n runes, marking the cut with "…".
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// plain makes untrusted text safe for a terminal: control characters (escape sequences
// that could rewrite the screen) become spaces.
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
}
