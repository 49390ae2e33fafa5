package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
)

// DefaultWidth is the terminal width assumed when none is known.
const DefaultWidth = 80

// Unwrapped, as a Terminal's Width, writes lines whole and tables at their natural
// width: for stdout that is not a terminal (a CI log, a file), whose width is unknown.
const Unwrapped = -1

// unwrappedWidth is the width Unwrapped stands for: more than any line is long.
const unwrappedWidth = 1 << 20

// Terminal says where a table report is shown.
type Terminal struct {
	// Width is the width in display columns; 0 means DefaultWidth, Unwrapped no limit.
	// Tables are fitted to it by wrapping or cutting long cells (never the borders or
	// item ids), and text lines are wrapped at spaces.
	Width int
	// Color turns on ANSI colours: the verdict and every status mark.
	Color bool
}

func (t Terminal) width() int {
	switch {
	case t.Width < 0:
		return unwrappedWidth
	case t.Width == 0:
		return DefaultWidth
	}
	return t.Width
}

// ANSI colours of statuses.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

func statusColor(s gate.Status) string {
	switch s {
	case gate.Pass:
		return ansiGreen
	case gate.Warn, gate.Inconclusive:
		return ansiYellow
	case gate.Fail:
		return ansiRed
	case gate.Accepted:
		return ansiCyan
	}
	return ansiDim
}

// paint colours s when colours are on.
func (t Terminal) paint(color, s string) string {
	if !t.Color || s == "" {
		return s
	}
	return color + s + ansiReset
}

// icon is the terminal's status mark, coloured when colours are on.
func (t Terminal) icon(s gate.Status) string { return t.paint(statusColor(s), termIcon(s)) }

// WriteTable renders the report for a terminal 80 columns wide, without colour.
func (r *Report) WriteTable(w io.Writer) error { return r.WriteTerminal(w, Terminal{}) }

// WriteTerminal renders the report for a terminal: the same sections as the markdown
// comment, in the same order, with tables that fit t's width.
func (r *Report) WriteTerminal(w io.Writer, t Terminal) error {
	width := t.width()
	var b strings.Builder
	line := func(s string) {
		for _, l := range wrapWidth(s, width, 0) {
			b.WriteString(l + "\n")
		}
	}
	r.headLines(t, line, true)
	for _, l := range r.decisionLines() { // the command that would settle it
		line(plain(l))
	}
	// The diagnosis and the history.
	for _, f := range r.Findings {
		line("diagnosis: " + plain(strings.ReplaceAll(f.Message, "`", "")))
	}
	if h := r.historyText(false); h != "" {
		line(plain(h))
	}
	// The tables.
	for _, l := range r.judgeLines() {
		line(plain(l))
	}
	b.WriteString("\n")

	cols := []column{{head: "dimension"}, {head: "weight"}, {head: "score"}, {head: "status", fit: wrap}}
	if r.Comparison != nil {
		cols = []column{{head: "dimension"}, {head: "weight"}, {head: "baseline"}, {head: "score"}, {head: "Δ", fit: wrap}, {head: "status", fit: wrap}}
	}
	var rows [][]string
	for _, d := range r.dimensionRows(t.icon) {
		if r.Comparison != nil {
			rows = append(rows, []string{d.name, d.weight, d.base, d.cand, d.change, d.status})
		} else {
			rows = append(rows, []string{d.name, d.weight, d.cand, d.status})
		}
	}
	fitTable(&b, cols, rows, width)

	rows = nil
	for _, g := range r.gateRows(t.icon) {
		rows = append(rows, []string{plain(g.name), g.kind, plain(g.threshold), plain(g.actual), g.status})
	}
	b.WriteString("\nGates:\n")
	fitTable(&b, []column{{head: "gate", fit: wrap, wholeWords: true}, {head: "kind"}, {head: "threshold", fit: wrap}, {head: "actual", fit: wrap}, {head: "status"}}, rows, width)
	if st := r.statisticsLines(); len(st) > 0 {
		b.WriteString("\nStatistics:\n")
		for _, l := range append(st, r.dimensionIntervals()...) {
			line(plain(strings.ReplaceAll(l, "`", "")))
		}
	}

	if d := r.Regression; d != nil && len(d.Evidence) > 0 {
		fmt.Fprintf(&b, "\nEvidence: the items that carried the decision (%d):\n", len(d.Evidence))
		rows = nil
		for _, e := range d.Evidence {
			rows = append(rows, []string{plain(e.ID), fmt.Sprintf("%.3f (%s)", e.BaseScore, runs(e.BaseRuns)),
				fmt.Sprintf("%.3f", e.Predicted), fmt.Sprintf("%.3f (%s)", e.CandScore, runs(e.CandRuns)), fmt.Sprintf("%.1f", e.Z)})
		}
		fitTable(&b, []column{{head: "item"}, {head: "baseline", fit: wrap}, {head: "expected"}, {head: "score", fit: wrap}, {head: "z"}}, rows, width)
	}
	title, items := r.Failing()
	if len(items) > 0 {
		fmt.Fprintf(&b, "\n%s (%d):\n", title, r.FailingTotal())
		rows = nil
		for i, it := range items {
			if i == MaxListedItems {
				break
			}
			loc := plain(r.SuiteFile)
			if it.Line > 0 { // an imported record inside a JSON document or an archive has no line
				loc = fmt.Sprintf("%s:%d", loc, it.Line)
			}
			rows = append(rows, []string{plain(it.ID), loc,
				fmt.Sprintf("%.3f", it.Score), plain(it.Reason()), plain(Truncate(it.Got, 200))})
		}
		fitTable(&b, []column{{head: "item"}, {head: "suite line", fit: cutLeft}, {head: "score"}, {head: "why", fit: wrap},
			{head: "output", fit: cut, optional: true}}, rows, width)
		if n := r.FailingTotal() - min(len(items), MaxListedItems); n > 0 {
			fmt.Fprintf(&b, "…and %d more (--format json lists every item)\n", n)
		}
	}
	if n := len(r.Summary.Pending); n > 0 {
		b.WriteString("\n")
		line(r.PendingTitle() + ":")
		for i, id := range r.Summary.Pending {
			if i == MaxListedItems {
				fmt.Fprintf(&b, "  …and %d more\n", n-MaxListedItems)
				break
			}
			line("  " + plain(id))
		}
	}
	if c := r.Comparison; c != nil {
		changeTable(&b, fmt.Sprintf("Biggest score drops (%d)", len(c.BiggestDrops)), c.BiggestDrops, width,
			[]column{{head: "item"}, {head: "baseline"}, {head: "score"}, {head: "now"}}, func(ch baseline.ItemChange) []string {
				return []string{plain(ch.ID), fmt.Sprintf("%.3f", ch.BaseScore), fmt.Sprintf("%.3f", ch.CandScore), passWord(ch.CandPass)}
			})
		changeTable(&b, fmt.Sprintf("Newly passing items (%d)", c.NumNewlyPassing()), c.NewlyPassing, width,
			[]column{{head: "item"}, {head: "baseline"}, {head: "score"}}, func(ch baseline.ItemChange) []string {
				return []string{plain(ch.ID), fmt.Sprintf("%.3f", ch.BaseScore), fmt.Sprintf("%.3f", ch.CandScore)}
			})
		changeTable(&b, fmt.Sprintf("Unstable items (%d): flip between baseline runs, never counted as newly failing", c.NumUnstable()), c.Unstable, width,
			[]column{{head: "item"}, {head: "baseline pass rate"}, {head: "now"}}, func(ch baseline.ItemChange) []string {
				return []string{plain(ch.ID), fmt.Sprintf("%.2f", ch.BasePassRate), passWord(ch.CandPass)}
			})
	}
	if tags := r.tagRows(); len(tags) > 0 {
		for _, row := range tags {
			row[0] = plain(row[0])
		}
		fmt.Fprintf(&b, "\nBy tag (%d):\n", len(tags))
		fitTable(&b, []column{{head: "tag", fit: wrap}, {head: "items"}, {head: "baseline"}, {head: "score"}, {head: "Δ"}}, tags, width)
	}
	b.WriteString("\n")
	line(r.gradeLine())
	if r.Command != "" {
		line("Reproduce locally: " + plain(r.Command))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// changeTable writes a titled table of item changes, capped at MaxListedItems.
func changeTable(b *strings.Builder, title string, items []baseline.ItemChange, width int, cols []column, row func(baseline.ItemChange) []string) {
	if len(items) == 0 {
		return
	}
	b.WriteString("\n")
	for _, l := range wrapWidth(title+":", width, 0) {
		b.WriteString(l + "\n")
	}
	var rows [][]string
	for i, ch := range items {
		if i == MaxListedItems {
			break
		}
		rows = append(rows, row(ch))
	}
	fitTable(b, cols, rows, width)
	if n := len(items) - MaxListedItems; n > 0 {
		fmt.Fprintf(b, "…and %d more (--format json lists every item)\n", n)
	}
}
