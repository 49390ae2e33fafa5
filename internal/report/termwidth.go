package report

import (
	"regexp"
	"strings"

	"github.com/rivo/uniseg"
)

// ansi matches the colour escapes the terminal renderer adds; they take no columns.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// displayWidth is the number of terminal columns s takes: grapheme clusters measured by
// uniseg, so an emoji ("⚠️", "👍", a flag) counts 2 and a combining accent 0.
func displayWidth(s string) int {
	return uniseg.StringWidth(ansi.ReplaceAllString(s, ""))
}

// cutWidth cuts s to at most w columns, marking the cut with "…".
func cutWidth(s string, w int) string {
	if displayWidth(s) <= w {
		return s
	}
	if w < 1 {
		return ""
	}
	head, _ := splitWidth(s, w-1)
	return head + "…"
}

// markCut ends s, which fits in w columns, with "…" to say that more was cut.
func markCut(s string, w int) string {
	if displayWidth(s)+1 <= w {
		return s + "…"
	}
	return cutWidth(s+"…", w)
}

// splitWidth splits s after at most w columns (at least one grapheme, so a loop
// over it always ends).
func splitWidth(s string, w int) (head, rest string) {
	used, n := 0, 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		cw := g.Width()
		if n > 0 && used+cw > w {
			break
		}
		used += cw
		_, end := g.Positions()
		n = end
	}
	return s[:n], s[n:]
}

// cutLeftWidth keeps the end of s in at most w columns ("…/suite.yaml:94"): the end of
// a path is the part that names the place.
func cutLeftWidth(s string, w int) string {
	if displayWidth(s) <= w {
		return s
	}
	if w < 1 {
		return ""
	}
	var clusters []string
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		clusters = append(clusters, g.Str())
	}
	used, i := 0, len(clusters)
	for i > 0 {
		cw := uniseg.StringWidth(clusters[i-1])
		if used+cw > w-1 {
			break
		}
		used += cw
		i--
	}
	return "…" + strings.Join(clusters[i:], "")
}

// wrapWidth breaks s into lines of at most w columns at spaces (a word longer than a
// line is broken inside), keeping at most maxLines lines; a cut is marked with "…".
func wrapWidth(s string, w, maxLines int) []string {
	if displayWidth(s) <= w || w < 2 {
		return []string{s}
	}
	var lines []string
	line := ""
	flush := func() {
		lines = append(lines, line)
		line = ""
	}
	for _, word := range strings.Fields(s) {
		for displayWidth(word) > w { // a word longer than a line is broken inside
			if line != "" {
				flush()
			}
			var head string
			head, word = splitWidth(word, w)
			lines = append(lines, head)
		}
		if word == "" {
			continue
		}
		switch {
		case line == "":
			line = word
		case displayWidth(line)+1+displayWidth(word) <= w:
			line += " " + word
		default:
			flush()
			line = word
		}
	}
	if line != "" {
		flush()
	}
	if maxLines > 0 && len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = markCut(lines[maxLines-1], w)
	}
	return lines
}
