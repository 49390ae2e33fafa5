package report

import (
	"fmt"
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

// Escape makes untrusted text safe inside a markdown table cell or paragraph: control,
// bidi and tag characters made visible (see Visible), then markdown neutralized.
func Escape(s string) string { return mdEscaper.Replace(Visible(s)) }

// Visible shows what a reviewer must not be fooled by in untrusted text (ids, model
// outputs, reasons): a C0 or C1 control character other than tab and newline (an ESC
// that rewrites a terminal, a carriage return that hides a line) becomes `\xNN`; a bidi
// control (U+202A–202E, U+2066–2069, U+200E/F, U+061C: "Trojan Source" reordering) or a
// Unicode tag character (U+E0000–E007F: invisible text) becomes `U+XXXX`. Bytes that are
// not UTF-8 become `\xNN` too. Every text renderer (markdown, job summary, terminal
// table, annotations) shows untrusted text through it.
func Visible(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if hidden(r, size) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s // the common case: nothing to show
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !hidden(r, size):
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i]) // one byte of broken UTF-8
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r) // a C0 or C1 control character
		default:
			fmt.Fprintf(&b, "U+%04X", r)
		}
		i += size
	}
	return b.String()
}

// hidden reports whether a rune (of the given encoded size) must be made visible.
func hidden(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size <= 1:
		return true
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

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

// plain makes untrusted text safe for one line of a terminal: control characters
// (escape sequences that could rewrite the screen) and bidi and tag characters made
// visible, tabs and newlines turned into spaces.
func plain(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' {
			return ' '
		}
		return r
	}, Visible(s))
}
