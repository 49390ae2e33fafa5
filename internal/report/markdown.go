package report

import (
	"fmt"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/evalgate/evalgate/internal/baseline"
)

// MarkdownOptions shape the PR comment. The action adds the hidden marker that makes
// the comment sticky, and its own notices, above what Markdown renders.
type MarkdownOptions struct {
	Notices []string // lines shown first; trusted text
}

// Markdown renders the report as GitHub-flavoured markdown: verdict line first, then the
// breakdown table, the gate table, the newly failing items, the grade with both version
// strings, and the command that reproduces the result.
func (r *Report) Markdown(o MarkdownOptions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s %s\n\n", statusIcon(r.Verdict.Status), Escape(r.headline()))
	for _, n := range o.Notices {
		fmt.Fprintf(&b, "> %s\n\n", n)
	}
	if r.Verdict.NoBaseline != "" {
		fmt.Fprintf(&b, "> ℹ️ %s\n\n", codeSpans(r.Verdict.NoBaseline))
	}
	for _, n := range notes(r) {
		fmt.Fprintf(&b, "> %s\n\n", codeSpans(n))
	}
	r.findingsMarkdown(&b)
	fmt.Fprintf(&b, "%s\n\n", Escape(r.summaryLine()))
	if rep := r.repeatability(); rep != "" {
		fmt.Fprintf(&b, "%s\n\n", Escape(rep))
	}
	for _, l := range r.judgeLines() {
		fmt.Fprintf(&b, "<sub>%s</sub>\n\n", Escape(l))
	}
	if h := r.historyLine(); h != "" {
		fmt.Fprintf(&b, "<sub>%s</sub>\n\n", h)
	}

	head := []string{"Dimension", "Weight", "PR", "Status"}
	if r.Comparison != nil {
		head = []string{"Dimension", "Weight", "Baseline", "PR", "Δ (95% CI)", "Status"}
	}
	var rows [][]string
	for _, d := range r.dimensionRows(statusIcon) {
		name := "`" + strings.ReplaceAll(d.name, "`", "'") + "`"
		if d.name == "score" {
			name = "**score**"
		}
		if r.Comparison != nil {
			rows = append(rows, []string{name, d.weight, d.base, d.cand, d.delta, d.status})
		} else {
			rows = append(rows, []string{name, d.weight, d.cand, d.status})
		}
	}
	mdTable(&b, head, rows)

	b.WriteString("\n**Gates**\n\n")
	rows = nil
	for _, g := range r.gateRows(statusIcon) {
		rows = append(rows, []string{Escape(g.name), g.kind, Escape(g.threshold), Escape(g.actual), g.status})
	}
	mdTable(&b, []string{"Gate", "Kind", "Threshold", "Actual", "Status"}, rows)

	title, items := r.Failing()
	if len(items) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%s (%d)</summary>\n\n", title, len(items))
		rows = nil
		for i, it := range items {
			if i == MaxListedItems {
				break
			}
			loc := fmt.Sprintf("%s:%d", r.SuiteFile, it.Line)
			rows = append(rows, []string{"`" + EscapeTrunc(it.ID, 60) + "`", Escape(loc), fmt.Sprintf("%.3f", it.Score),
				EscapeTrunc(it.Reason(), 80), EscapeTrunc(it.Got, 80)})
		}
		mdTable(&b, []string{"Item", "Suite line", "Score", "Why", "Output"}, rows)
		if n := len(items) - MaxListedItems; n > 0 {
			fmt.Fprintf(&b, "\n…and %d more (see the full report).\n", n)
		}
		b.WriteString("\n</details>\n")
	}
	if c := r.Comparison; c != nil {
		detailsList(&b, fmt.Sprintf("Newly passing items (%d)", len(c.NewlyPassing)), c.NewlyPassing, func(ch baseline.ItemChange) string {
			return fmt.Sprintf("`%s` %.3f → %.3f", EscapeTrunc(ch.ID, 60), ch.BaseScore, ch.CandScore)
		})
		detailsList(&b, fmt.Sprintf("Unstable items (%d): flip between baseline runs, never counted as newly failing", len(c.Unstable)), c.Unstable, func(ch baseline.ItemChange) string {
			return fmt.Sprintf("`%s` baseline pass rate %.2f, PR %s", EscapeTrunc(ch.ID, 60), ch.BasePassRate, passWord(ch.CandPass))
		})
	}
	if tags := r.tagRows(); len(tags) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>By tag (%d)</summary>\n\n", len(tags))
		for _, row := range tags {
			row[0] = "`" + EscapeTrunc(row[0], 40) + "`"
		}
		mdTable(&b, []string{"Tag", "Items", "Baseline", "PR", "Δ"}, tags)
		b.WriteString("\n</details>\n")
	}
	fmt.Fprintf(&b, "\n%s\n", Escape(r.gradeLine()))
	if r.Command != "" {
		fmt.Fprintf(&b, "\n<sub>Reproduce locally: <code>%s</code></sub>\n", htmlEscape(r.Command))
	}
	return b.String()
}

func passWord(p bool) string {
	if p {
		return "passes"
	}
	return "fails"
}

var htmlReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "@", "&#64;", "|", "&#124;")

func htmlEscape(s string) string { return htmlReplacer.Replace(Visible(s)) }

// notes are the comparison's remarks (re-scoring, suite changes).
func notes(r *Report) []string {
	if r.Comparison == nil {
		return nil
	}
	return r.Comparison.Notes
}

// mdTable writes a GitHub markdown table; cells must already be escaped.
func mdTable(b *strings.Builder, head []string, rows [][]string) {
	t := tablewriter.NewWriter(b)
	t.SetHeader(head)
	t.SetAutoFormatHeaders(false)
	t.SetAutoWrapText(false)
	t.SetBorders(tablewriter.Border{Left: true, Top: false, Right: true, Bottom: false})
	t.SetCenterSeparator("|")
	t.AppendBulk(rows)
	t.Render()
}

// codeSpans escapes text in which `backticked` parts are commands: those become
// <code> spans (HTML-escaped), the rest is escaped as markdown.
func codeSpans(s string) string {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + htmlEscape(p) + "</code>")
		} else {
			if i%2 == 1 {
				b.WriteString(Escape("`"))
			}
			b.WriteString(Escape(p))
		}
	}
	return b.String()
}

// detailsList writes a collapsed list of item changes, capped at MaxListedItems.
func detailsList(b *strings.Builder, summary string, items []baseline.ItemChange, line func(baseline.ItemChange) string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "\n<details><summary>%s</summary>\n\n", summary)
	for i, ch := range items {
		if i == MaxListedItems {
			fmt.Fprintf(b, "- …and %d more\n", len(items)-MaxListedItems)
			break
		}
		fmt.Fprintf(b, "- %s\n", line(ch))
	}
	b.WriteString("\n</details>\n")
}
