package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
)

// RenderComparison writes a release-to-release diff (`evalgate compare A B`); cost is
// B's beside A's (SnapshotCost), nil when B recorded none.
func RenderComparison(w io.Writer, c *baseline.Comparison, v *gate.Verdict, cost *Cost, a, b, format string) error {
	switch format {
	case FormatJSON:
		return writeJSON(w, struct {
			*baseline.Comparison
			Regression *gate.RegressionDecision `json:"regression"`
			Verdict    *gate.Verdict            `json:"verdict"`
			Cost       *Cost                    `json:"cost,omitempty"`
		}{c, v.Regression, v, cost})
	case FormatTable, FormatMarkdown:
	default:
		return fmt.Errorf("unknown format %q; want %s", format, strings.Join(ComparisonFormats, ", "))
	}
	md := format == FormatMarkdown
	esc := plain
	if md {
		esc = Escape
	}
	var sb strings.Builder
	icon := termIcon
	if md {
		icon = statusIcon
	}
	fmt.Fprintf(&sb, "%s %s → %s: %s\n", icon(v.Status), esc(a), esc(b), v.Word())
	if v.Regression != nil {
		fmt.Fprintf(&sb, "%s\n", esc(v.Regression.DecidedBy))
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&sb, "note: %s\n", esc(n))
	}
	fmt.Fprintf(&sb, "\nscore %.3f → %.3f · Δ %s, 95%% CI [%s, %s], p = %.3g · %d item(s) compared\n", c.Base, c.Cand,
		gate.FormatDelta(c.Delta, c.RelDelta, gate.Absolute), gate.FormatPts(c.CI.Lo), gate.FormatPts(c.CI.Hi), c.PValue, c.Compared)
	if l := cost.Line(true); l != "" { // trusted text: saved runs' figures, no model names
		fmt.Fprintf(&sb, "%s\n", l)
	}
	sb.WriteString("\n")
	rows := [][]string{}
	for _, d := range c.Dimensions {
		rows = append(rows, []string{esc(d.Name), fmt.Sprintf("%.3f", d.Base), fmt.Sprintf("%.3f", d.Cand), gate.FormatPts(d.Delta)})
	}
	rows = append(rows, []string{"score", fmt.Sprintf("%.3f", c.Base), fmt.Sprintf("%.3f", c.Cand), gate.FormatPts(c.Delta)})
	head := []string{"dimension", "A", "B", "Δ"}
	if md {
		mdTable(&sb, head, rows)
	} else {
		termTable(&sb, head, rows)
	}
	if len(c.Tags) > 0 {
		rows = nil
		for _, t := range c.Tags {
			rows = append(rows, []string{esc(t.Name), fmt.Sprint(t.Items), fmt.Sprintf("%.3f", t.Base), fmt.Sprintf("%.3f", t.Cand), gate.FormatPts(t.Delta)})
		}
		sb.WriteString("\n")
		if md {
			mdTable(&sb, []string{"tag", "items", "A", "B", "Δ"}, rows)
		} else {
			termTable(&sb, []string{"tag", "items", "A", "B", "Δ"}, rows)
		}
	}
	for _, l := range []struct {
		title string
		items []baseline.ItemChange
		n     int
	}{{"newly failing", c.NewlyFailing, c.NumNewlyFailing()}, {"newly passing", c.NewlyPassing, c.NumNewlyPassing()}, {"unstable in A", c.Unstable, c.NumUnstable()}} {
		if len(l.items) == 0 {
			continue
		}
		fmt.Fprintf(&sb, "\n%s (%d):\n", l.title, l.n)
		for i, ch := range l.items {
			if i == MaxListedItems {
				fmt.Fprintf(&sb, "- …and %d more\n", l.n-MaxListedItems)
				break
			}
			fmt.Fprintf(&sb, "- %s %.3f → %.3f\n", esc(Truncate(ch.ID, 60)), ch.BaseScore, ch.CandScore)
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
