package report

import "strings"

// CodeSpan shows untrusted text (an item id, a tag) as a markdown code span, cut to n
// runes. Inside a code span markdown is not read: a backslash is shown as it is, so
// Escape's backslashes would print ("refund\_window"), and an escaped backtick would
// still end the span.
// The text is therefore made visible (see Visible) with line breaks as spaces and put
// between backtick fences longer than any run of backticks in it. No HTML, emphasis,
// link or mention is read inside a code span, so nothing more is needed; in a table
// cell use CodeCell, which also escapes "|".
func CodeSpan(s string, n int) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(Visible(Truncate(s, n)))
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.Trim(s, " ") == "" && s != "" {
		s = " " + s + " " // a span whose text starts or ends with a backtick, or is only spaces
	}
	return fence + s + fence
}

// CodeCell is CodeSpan for a GitHub table cell, where "|" ends the cell even inside a
// code span unless written "\|" (GitHub's tables remove that backslash before the span
// is read).
func CodeCell(s string, n int) string {
	return strings.ReplaceAll(CodeSpan(s, n), "|", `\|`)
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}
