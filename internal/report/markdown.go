package report

import (
	"fmt"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
)

// MarkdownOptions shape the PR comment. The action adds the hidden marker that makes
// the comment sticky above what Markdown renders.
type MarkdownOptions struct {
	// MaxChars bounds the rendered comment; 0 means MaxCommentChars. Past it, whole
	// blocks are cut in the order of their cut ranks (see Section).
	MaxChars int
	// ReportURL, when set, is where a reader finds the HTML report (the workflow run's
	// artifacts): each item the comment cuts links there for its full text.
	ReportURL string
	// ReportName is the HTML report's file name, named beside the link.
	ReportName string
}

// MaxCommentChars is what Markdown leaves of GitHub's 65,536-character limit on a
// comment body ("body is too long (maximum is 65536 characters)"), keeping room for the
// action's sticky marker and its notices.
const MaxCommentChars = 65536 - 2048

// Section is one part of the comment. The comment renders them in this order, owned
// here and nowhere else; a section with nothing to say renders nothing:
//
//  1. SectionHeadline: the verdict in one sentence with the figure that decided and
//     its threshold, then the score line (no intervals, no p-values)
//  2. SectionNotices: one line each, in NoticeSlot order (notice.go): accepted,
//     proposed gate, changed judge, scoring changed without a version bump, no
//     baseline, cost, other notes
//  3. SectionChanges: what changed, item by item: the newly failing items (failing,
//     without a baseline) with expected and got, open
//  4. SectionFindings: what the breakdown shows (patterns across items)
//  5. SectionTables: the dimension table and the gate table
//  6. SectionStatistics: one collapsed <details> with every interval, p-value,
//     resolving power and the evidence (statistics.go); nothing statistical appears
//     outside it
//  7. SectionMore: collapsed lists (biggest drops, newly passing, unstable, pending),
//     the tags, the history chart, then the grade and the command that reproduces it
//
// Over the size limit, blocks are cut whole, the lowest cut rank first (a block cut
// early comes back when it fits once a larger one is cut); the headline, the notices
// and the footer are never cut.
type Section int

// Sections, in render order.
const (
	SectionHeadline Section = iota
	SectionNotices
	SectionChanges
	SectionFindings
	SectionTables
	SectionStatistics
	SectionMore
)

// Cut ranks: which blocks go first when the comment is too long (lowest first).
const (
	cutItemLists = iota + 1
	cutTags
	cutHistory
	cutStatistics
	cutFindings
	cutChanges
	cutTables
	cutNever = 1 << 30
)

// block is a piece of the comment that is kept or cut whole.
type block struct {
	text string
	cut  int // cut rank; cutNever for the headline and notices
	name string
}

// Markdown renders the report as GitHub-flavoured markdown, section by section in the
// order Section fixes, within the size limit.
func (r *Report) Markdown(o MarkdownOptions) string {
	var blocks []block
	for _, sec := range []func(MarkdownOptions) []block{r.mdHeadline, r.mdProposed, r.mdNotices, r.mdChanges, r.mdFindings, r.mdTables, r.mdStatistics, r.mdMore} {
		blocks = append(blocks, sec(o)...)
	}
	limit := o.MaxChars
	if limit <= 0 {
		limit = MaxCommentChars
	}
	return fitBlocks(blocks, limit)
}

// fitBlocks joins the blocks, cutting whole blocks by rank until the text fits; then a
// cut block that fits again (the cut of a larger, more important one made room) comes
// back, most important first.
func fitBlocks(blocks []block, limit int) string {
	total := 0
	for _, b := range blocks {
		total += len(b.text)
	}
	var cut []int    // indices of the cut blocks, in cutting order
	var was []string // their text before the cut
	for rank := cutItemLists; total > limit && rank <= cutTables; rank++ {
		for i := len(blocks) - 1; i >= 0 && total > limit; i-- {
			if blocks[i].cut != rank || blocks[i].text == "" {
				continue
			}
			note := fmt.Sprintf("\n<sub>%s left out: the comment would exceed GitHub's limit; the full report has it.</sub>\n", blocks[i].name)
			total += len(note) - len(blocks[i].text)
			cut, was = append(cut, i), append(was, blocks[i].text)
			blocks[i].text = note
		}
	}
	for k := len(cut) - 1; k >= 0; k-- {
		i := cut[k]
		if grow := len(was[k]) - len(blocks[i].text); total+grow <= limit {
			total += grow
			blocks[i].text = was[k]
		}
	}
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.text)
	}
	return b.String()
}

// mdHeadline: the verdict in one sentence, then the score line.
func (r *Report) mdHeadline(MarkdownOptions) []block {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s %s\n\n", statusIcon(r.headlineStatus()), Escape(r.headline()))
	fmt.Fprintf(&b, "%s\n\n", Escape(r.scoreLine()))
	return []block{{text: b.String(), cut: cutNever}}
}

// mdNotices: one line per notice, in slot order; then, for an inconclusive result, the
// command that would settle it.
func (r *Report) mdNotices(MarkdownOptions) []block {
	var b strings.Builder
	for _, n := range r.Notices {
		if n.Warn {
			fmt.Fprintf(&b, "> [!WARNING]\n> %s\n\n", codeSpans(n.Text))
		} else {
			fmt.Fprintf(&b, "> %s\n\n", codeSpans(n.Text))
		}
	}
	for _, l := range r.decisionLines() { // the command that would settle it
		fmt.Fprintf(&b, "%s\n\n", codeSpans(l))
	}
	return []block{{text: b.String(), cut: cutNever}}
}

// mdFindings is the findings section: the diagnosis of the breakdown (findings.go).
func (r *Report) mdFindings(MarkdownOptions) []block {
	var b strings.Builder
	r.findingsMarkdown(&b)
	return []block{{text: b.String(), cut: cutFindings, name: "The diagnosis"}}
}

// mdTables: the dimension table and the gate table. A passing pull request's gate
// table is folded: every row says pass.
func (r *Report) mdTables(MarkdownOptions) []block {
	var b strings.Builder
	head := []string{"Dimension", "Weight", "PR", "Status"}
	if r.Comparison != nil {
		head = []string{"Dimension", "Weight", "Baseline", "PR", "Δ", "Status"}
	}
	var rows [][]string
	for _, d := range r.dimensionRows(statusIcon) {
		name := "`" + strings.ReplaceAll(d.name, "`", "'") + "`"
		if d.name == "score" {
			name = "**score**"
		}
		if r.Comparison != nil {
			rows = append(rows, []string{name, d.weight, d.base, d.cand, d.change, d.status})
		} else {
			rows = append(rows, []string{name, d.weight, d.cand, d.status})
		}
	}
	mdTable(&b, head, rows)

	rows = nil
	for _, g := range r.gateRows(statusIcon) {
		rows = append(rows, []string{Escape(g.name), g.kind, Escape(g.threshold), Escape(g.actual), g.status})
	}
	if r.Verdict.Status == gate.Pass {
		fmt.Fprintf(&b, "\n<details><summary>Gates: all %d pass</summary>\n\n", len(rows))
		mdTable(&b, []string{"Gate", "Kind", "Threshold", "Actual", "Status"}, rows)
		b.WriteString("\n</details>\n")
	} else {
		b.WriteString("\n**Gates**\n\n")
		mdTable(&b, []string{"Gate", "Kind", "Threshold", "Actual", "Status"}, rows)
	}
	return []block{{text: b.String(), cut: cutTables, name: "The tables"}}
}

// mdMore: what a reader opens when they want more: the other item lists, the tags, the
// history, then the grade and the command that reproduces the result.
func (r *Report) mdMore(MarkdownOptions) []block {
	var lists strings.Builder
	if len(r.Summary.Pending) > 0 {
		fmt.Fprintf(&lists, "\n<details><summary>%s</summary>\n\n", r.PendingTitle())
		for i, id := range r.Summary.Pending {
			if i == MaxListedItems {
				fmt.Fprintf(&lists, "- …and %d more\n", len(r.Summary.Pending)-MaxListedItems)
				break
			}
			fmt.Fprintf(&lists, "- %s\n", CodeSpan(id, 60))
		}
		lists.WriteString("\n</details>\n")
	}
	if c := r.Comparison; c != nil {
		detailsList(&lists, fmt.Sprintf("Biggest score drops (%d)", len(c.BiggestDrops)), c.BiggestDrops, func(ch baseline.ItemChange) string {
			return fmt.Sprintf("%s %.3f → %.3f (%s)", CodeSpan(ch.ID, 60), ch.BaseScore, ch.CandScore, passWord(ch.CandPass))
		})
		detailsList(&lists, fmt.Sprintf("Newly passing items (%d)", c.NumNewlyPassing()), c.NewlyPassing, func(ch baseline.ItemChange) string {
			return fmt.Sprintf("%s %.3f → %.3f", CodeSpan(ch.ID, 60), ch.BaseScore, ch.CandScore)
		})
		detailsList(&lists, fmt.Sprintf("Unstable items (%d): flip between baseline runs, never counted as newly failing", c.NumUnstable()), c.Unstable, func(ch baseline.ItemChange) string {
			return fmt.Sprintf("%s baseline pass rate %.2f, PR %s", CodeSpan(ch.ID, 60), ch.BasePassRate, passWord(ch.CandPass))
		})
	}
	blocks := []block{{text: lists.String(), cut: cutItemLists, name: "Item lists"}}

	var tagsB strings.Builder
	if tags := r.tagRows(); len(tags) > 0 {
		fmt.Fprintf(&tagsB, "\n<details><summary>By tag (%d)</summary>\n\n", len(tags))
		for _, row := range tags {
			row[0] = CodeCell(row[0], 40)
		}
		mdTable(&tagsB, []string{"Tag", "Items", "Baseline", "PR", "Δ"}, tags)
		tagsB.WriteString("\n</details>\n")
	}
	blocks = append(blocks, block{text: tagsB.String(), cut: cutTags, name: "The tag table"})

	var hist strings.Builder
	if chart, line := r.MermaidChart(), r.historyLine(); chart != "" || line != "" {
		hist.WriteString("\n<details><summary>Chart and history</summary>\n\n")
		hist.WriteString(chart)
		if line != "" {
			fmt.Fprintf(&hist, "<sub>%s</sub>\n\n", line)
		}
		hist.WriteString("</details>\n")
	}
	blocks = append(blocks, block{text: hist.String(), cut: cutHistory, name: "The history"})

	var tail strings.Builder
	fmt.Fprintf(&tail, "\n%s\n", Escape(r.gradeLine()))
	for _, l := range r.judgeLines() {
		fmt.Fprintf(&tail, "\n<sub>%s</sub>\n", Escape(l))
	}
	if r.Command != "" {
		fmt.Fprintf(&tail, "\n<sub>Reproduce locally: <code>%s</code></sub>\n", htmlEscape(r.Command))
	}
	return append(blocks, block{text: tail.String(), cut: cutNever})
}

// runs is "1 run" or "3 runs".
func runs(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

func passWord(p bool) string {
	if p {
		return "passes"
	}
	return "fails"
}

// htmlReplacer makes untrusted text inert inside an HTML element (<code>, <sub>) of
// GitHub markdown. Markdown goes on inside inline HTML, so besides HTML's own
// characters every character markdown acts on is written as an entity, which shows as
// itself (a command pasted from the page is unchanged) but starts nothing: no link or
// image ([, ], !), emphasis (*, _, ~), code span (`), escape (\), mention (@), issue
// reference (#), table cell (|); and a line break is an entity too, so text cannot end
// the paragraph or the quote it is in and start markdown of its own (a heading, a list).
var htmlReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "@", "&#64;", "|", "&#124;",
	"[", "&#91;", "]", "&#93;", "!", "&#33;", "*", "&#42;", "_", "&#95;", "~", "&#126;", "`", "&#96;",
	"\\", "&#92;", "#", "&#35;", "\r\n", "&#10;", "\n", "&#10;", "\r", "&#10;")

func htmlEscape(s string) string { return htmlReplacer.Replace(Visible(s)) }

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
