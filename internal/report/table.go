package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
)

// WriteTable renders the report for a terminal.
func (r *Report) WriteTable(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", termIcon(r.Verdict.Status), plain(r.headline()))
	if r.Verdict.NoBaseline != "" {
		fmt.Fprintf(&b, "note: %s\n", plain(r.Verdict.NoBaseline))
	}
	for _, n := range notes(r) {
		fmt.Fprintf(&b, "note: %s\n", plain(n))
	}
	r.findingsTable(&b)
	fmt.Fprintf(&b, "%s\n", r.summaryLine())
	for _, l := range r.decisionLines() {
		fmt.Fprintf(&b, "%s\n", plain(l))
	}
	if rep := r.repeatability(); rep != "" {
		fmt.Fprintf(&b, "%s\n", rep)
	}
	for _, l := range r.judgeLines() {
		fmt.Fprintf(&b, "%s\n", plain(l))
	}
	b.WriteString("\n")

	head := []string{"dimension", "weight", "score", "status"}
	if r.Comparison != nil {
		head = []string{"dimension", "weight", "baseline", "score", "Δ [95% CI]", "status"}
	}
	var rows [][]string
	for _, d := range r.dimensionRows(termIcon) {
		if r.Comparison != nil {
			rows = append(rows, []string{d.name, d.weight, d.base, d.cand, d.delta, d.status})
		} else {
			rows = append(rows, []string{d.name, d.weight, d.cand, d.status})
		}
	}
	termTable(&b, head, rows)

	rows = nil
	for _, g := range r.gateRows(termIcon) {
		rows = append(rows, []string{g.name, g.kind, g.threshold, g.actual, g.status})
	}
	b.WriteString("\n")
	termTable(&b, []string{"gate", "kind", "threshold", "actual", "status"}, rows)

	if tags := r.tagRows(); len(tags) > 0 {
		for _, row := range tags {
			row[0] = plain(Truncate(row[0], 40))
		}
		b.WriteString("\n")
		termTable(&b, []string{"tag", "items", "baseline", "score", "Δ"}, tags)
	}

	title, items := r.Failing()
	if len(items) > 0 {
		fmt.Fprintf(&b, "\n%s (%d):\n", title, len(items))
		rows = nil
		for i, it := range items {
			if i == MaxListedItems {
				break
			}
			rows = append(rows, []string{plain(Truncate(it.ID, 40)), fmt.Sprintf("%s:%d", r.SuiteFile, it.Line),
				fmt.Sprintf("%.3f", it.Score), plain(Truncate(it.Reason(), 60)), plain(Truncate(it.Got, 50))})
		}
		termTable(&b, []string{"item", "suite line", "score", "why", "output"}, rows)
		if n := len(items) - MaxListedItems; n > 0 {
			fmt.Fprintf(&b, "…and %d more (--format json lists every item)\n", n)
		}
	}
	fmt.Fprintf(&b, "\n%s\n", r.gradeLine())
	_, err := io.WriteString(w, b.String())
	return err
}

func termTable(b *strings.Builder, head []string, rows [][]string) {
	t := tablewriter.NewWriter(b)
	t.SetHeader(head)
	t.SetAutoFormatHeaders(false)
	t.SetAutoWrapText(false)
	t.SetAlignment(tablewriter.ALIGN_LEFT)
	t.SetHeaderAlignment(tablewriter.ALIGN_LEFT)
	t.AppendBulk(rows)
	t.Render()
}
