package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/history"
	"github.com/evalgate/evalgate/internal/pricing"
)

// HistoryShown is how many past releases the PR comment's history line shows.
const HistoryShown = 5

// RenderHistory writes the score's history (`evalgate history`) as a table or JSON.
func RenderHistory(w io.Writer, recs []history.Record, format string) error {
	switch format {
	case FormatJSON:
		if recs == nil {
			recs = []history.Record{}
		}
		return writeJSON(w, recs)
	case FormatTable:
	default:
		return fmt.Errorf("unknown format %q; want table, json", format)
	}
	if len(recs) == 0 {
		_, err := io.WriteString(w, "no history yet: each `evalgate baseline` appends one record\n")
		return err
	}
	dims := historyDims(recs)
	head := append([]string{"release", "date", "commit", "score", "Δ prev"}, dims...)
	costs := historyHasCost(recs)
	if costs {
		head = append(head, "cost/run")
	}
	head = append(head, "scoring")
	var rows [][]string
	for i, r := range recs {
		delta := ""
		switch {
		case r.ScoringChanged:
			delta = "scoring changed"
		case i > 0:
			delta = fmt.Sprintf("%+.1f pts", 100*(r.Mean-recs[i-1].Mean))
		}
		row := []string{plain(releaseName(r)), dateOnly(r.Date), shortSHA(r.Commit), fmt.Sprintf("%.3f ± %.3f", r.Mean, r.Std), delta}
		for _, d := range dims {
			if v, ok := r.Dimensions[d]; ok {
				row = append(row, fmt.Sprintf("%.3f", v))
			} else {
				row = append(row, "")
			}
		}
		if costs {
			row = append(row, historyCost(r))
		}
		rows = append(rows, append(row, r.ScoringSystem))
	}
	var b strings.Builder
	termTable(&b, head, rows)
	if n := countChanges(recs); n > 0 {
		fmt.Fprintf(&b, "\n%d scoring change(s): scores on either side of one are not comparable.\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// historyHasCost says whether any record has a cost: older ones have none.
func historyHasCost(recs []history.Record) bool {
	for _, r := range recs {
		if r.CostUSD != nil {
			return true
		}
	}
	return false
}

// historyCost is a record's cost cell: the system's cost per run, with the judges'
// beside it when they cost something; "" for a record made before costs.
func historyCost(r history.Record) string {
	if r.CostUSD == nil {
		return ""
	}
	s := pricing.Dollars(*r.CostUSD)
	if r.JudgeCostUSD != nil && *r.JudgeCostUSD > 0 {
		s += " + judge " + pricing.Dollars(*r.JudgeCostUSD)
	}
	return s
}

// historyDims lists every dimension any record names, sorted.
func historyDims(recs []history.Record) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range recs {
		for d := range r.Dimensions {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	sort.Strings(out)
	return out
}

func countChanges(recs []history.Record) int {
	n := 0
	for _, r := range recs {
		if r.ScoringChanged {
			n++
		}
	}
	return n
}

func releaseName(r history.Record) string {
	name := strings.TrimPrefix(strings.TrimPrefix(r.Release, "refs/tags/"), "refs/heads/")
	if name == "" {
		name = shortSHA(r.Commit)
	}
	if name == "" {
		name = dateOnly(r.Date)
	}
	return name
}

func shortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

func dateOnly(d string) string {
	if len(d) >= 10 {
		return d[:10]
	}
	return d
}

// comparableTail is the last n records after the latest scoring change, the ones a
// score under the current scoring system can be read against, and whether older
// records were left out for a change.
func comparableTail(recs []history.Record, scoring string, n int) ([]history.Record, bool) {
	start, cut := 0, false
	for i, r := range recs {
		if r.ScoringChanged {
			start, cut = i, true
		}
	}
	tail := recs[start:]
	if len(tail) > 0 && scoring != "" && tail[len(tail)-1].ScoringSystem != scoring {
		return nil, true
	}
	if len(tail) > n {
		tail = tail[len(tail)-n:]
	}
	return tail, cut
}

// historyLine is the PR comment's one line: the last releases' scores, then the PR's.
func (r *Report) historyLine() string { return r.historyText(true) }

// historyText is the history line as markdown, or as plain text for a terminal.
func (r *Report) historyText(markdown bool) string {
	tail, cut := comparableTail(r.History, r.ScoringSystem, HistoryShown)
	if len(tail) == 0 {
		return ""
	}
	esc, bold := Escape, "**"
	if !markdown {
		esc, bold = plain, ""
	}
	var parts []string
	for _, h := range tail {
		parts = append(parts, fmt.Sprintf("%s %.3f", esc(releaseName(h)), h.Mean))
	}
	s := "History: " + strings.Join(parts, " → ") + fmt.Sprintf(" → %sthis PR %.3f%s", bold, r.Summary.Mean, bold)
	if cut {
		s += " (since the last scoring change)"
	}
	return s
}
