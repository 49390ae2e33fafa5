package report

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// changeCellRunes is how much of an expected answer or an output a row of the comment's
// first table shows; the HTML report has the full text.
const changeCellRunes = 120

// mdChanges is what changed, item by item: the newly failing items (the failing ones
// without a baseline), each with what was expected and what came out, open.
func (r *Report) mdChanges(o MarkdownOptions) []block {
	title, items := r.Failing()
	total := r.FailingTotal()
	if len(items) == 0 || total == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<details open><summary><b>%s (%d)</b></summary>\n\n", title, total)
	head := []string{"Item", "Expected", "Got", "Why"}
	var rows [][]string
	for i, it := range items {
		if i == MaxListedItems {
			break
		}
		id := CodeCell(it.ID, 60)
		got := excerpt(it.Got, changeCellRunes)
		cell := Escape(got)
		switch {
		case it.Missing:
			cell = "(no result)"
		case got == "":
			cell = "(empty output)" // not a blank cell, which reads as nothing to show
		case o.ReportURL != "" && got != it.Got:
			cell += fmt.Sprintf(" [full text](%s)", o.ReportURL)
		}
		rows = append(rows, []string{id, Escape(excerpt(expectedText(it), changeCellRunes)), cell, EscapeTrunc(it.ScoredReason(), 100)})
	}
	mdTable(&b, head, rows)
	if n := total - min(len(items), MaxListedItems); n > 0 {
		fmt.Fprintf(&b, "\n…and %d more in the full report.\n", n)
	}
	b.WriteString("\n" + r.fullTextLine(o) + "\n\n</details>\n\n")
	return []block{{text: b.String(), cut: cutChanges, name: "The changed items"}}
}

// fullTextLine says where the texts the table cuts are whole.
func (r *Report) fullTextLine(o MarkdownOptions) string {
	name := o.ReportName
	if name == "" {
		name = "the HTML report"
	}
	switch {
	case o.ReportURL != "":
		return fmt.Sprintf("<sub>Full prompts, answers and reasons: %s in [this run's artifacts](%s), in its item table.</sub>", htmlEscape(name), o.ReportURL)
	case o.ReportName != "":
		return fmt.Sprintf("<sub>Full prompts, answers and reasons: %s (the action's <code>html-path</code>; keep it with actions/upload-artifact), in its item table.</sub>", htmlEscape(name))
	case r.Command != "":
		return fmt.Sprintf("<sub>Full prompts, answers and reasons: <code>%s --format html --out report.html</code></sub>", htmlEscape(r.Command))
	}
	return ""
}

// expectedText is an item's reference answer as one line of text.
func expectedText(it Item) string {
	if it.Expected == nil {
		return ""
	}
	return describe(it.Expected)
}

// excerpt is the start of s on one line, cut with care: runs of white space become one
// space, and a text longer than n runes is cut at the last word boundary before n
// (never inside a word, unless the word alone is longer), marked with "…".
func excerpt(s string, n int) string {
	s = strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := len(r)
	for i := len(r) - 1; i > n/2; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " ,;:") + " …"
}
