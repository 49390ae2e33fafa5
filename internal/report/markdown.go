package report

import (
	"fmt"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/evalgate/evalgate/internal/baseline"
)

// MarkdownOptions shape the PR comment. The action adds the hidden marker that makes
// the comment sticky above what Markdown renders.
type MarkdownOptions struct {
	Notices []string // shown first among the notices; trusted text
	// MaxChars bounds the rendered comment; 0 means MaxCommentChars. Past it, whole
	// blocks are cut in the order of the sections' cut ranks (see Section).
	MaxChars int
}

// MaxCommentChars is what Markdown leaves of GitHub's 65,536-character limit on a
// comment body ("body is too long (maximum is 65536 characters)"), keeping room for the
// action's sticky marker and its notices.
const MaxCommentChars = 65536 - 2048

// Section is one part of the comment. The comment renders them in this order, owned
// here and nowhere else:
//
//  1. SectionHeadline: the verdict, the score line, the line that decided
//  2. SectionNotices: accepted by, this pull request changes its gate, no baseline,
//     re-scoring and suite changes, deprecations
//  3. SectionFindings: what the breakdown shows (patterns across items)
//  4. SectionHistory: the score's chart and history
//  5. SectionTables: the breakdown, gates, items, tags, grade and the command
//
// Over the size limit, blocks are cut whole, the lowest cut rank first: item lists,
// then tags, then history, then findings, then the tables; the headline and the notices
// are never cut.
type Section int

// Sections, in render order.
const (
	SectionHeadline Section = iota
	SectionNotices
	SectionFindings
	SectionHistory
	SectionTables
)

// Cut ranks: which blocks go first when the comment is too long (lowest first).
const (
	cutItemLists = iota + 1
	cutTags
	cutHistory
	cutFindings
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
	for _, sec := range []func(MarkdownOptions) []block{r.mdProposed, r.mdHeadline, r.mdNotices, r.mdFindings, r.mdHistory, r.mdTables} {
		blocks = append(blocks, sec(o)...)
	}
	limit := o.MaxChars
	if limit <= 0 {
		limit = MaxCommentChars
	}
	return fitBlocks(blocks, limit)
}

// fitBlocks joins the blocks, cutting whole blocks by rank until the text fits.
func fitBlocks(blocks []block, limit int) string {
	total := 0
	for _, b := range blocks {
		total += len(b.text)
	}
	for rank := cutItemLists; total > limit && rank <= cutTables; rank++ {
		for i := len(blocks) - 1; i >= 0 && total > limit; i-- {
			if blocks[i].cut != rank || blocks[i].text == "" {
				continue
			}
			note := fmt.Sprintf("\n<sub>%s left out: the comment would exceed GitHub's limit; the full report has it.</sub>\n", blocks[i].name)
			total += len(note) - len(blocks[i].text)
			blocks[i].text = note
		}
	}
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.text)
	}
	return b.String()
}

// mdHeadline: the verdict, the score line, the regression decision.
func (r *Report) mdHeadline(MarkdownOptions) []block {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s %s\n\n", statusIcon(r.Verdict.Status), Escape(r.headline()))
	fmt.Fprintf(&b, "%s\n\n", Escape(r.summaryLine()))
	for _, l := range r.decisionLines() {
		fmt.Fprintf(&b, "%s\n\n", codeSpans(l))
	}
	b.WriteString(r.mdStatistics())
	return []block{{text: b.String(), cut: cutNever}}
}

// mdNotices: the caller's notices, then the missing baseline, deprecations and the
// comparison's notes.
func (r *Report) mdNotices(o MarkdownOptions) []block {
	var b strings.Builder
	for _, n := range o.Notices {
		fmt.Fprintf(&b, "> %s\n\n", n)
	}
	switch {
	case r.Verdict.MissingBaseline != "":
		fmt.Fprintf(&b, "> [!WARNING]\n> %s\n\n", codeSpans(r.Verdict.NoBaseline))
	case r.Verdict.NoBaseline != "":
		fmt.Fprintf(&b, "> ℹ️ %s\n\n", codeSpans(r.Verdict.NoBaseline))
	}
	for _, n := range notes(r) {
		fmt.Fprintf(&b, "> %s\n\n", codeSpans(n))
	}
	return []block{{text: b.String(), cut: cutNever}}
}

// mdFindings is the findings section: the diagnosis of the breakdown (findings.go).
func (r *Report) mdFindings(MarkdownOptions) []block {
	var b strings.Builder
	r.findingsMarkdown(&b)
	return []block{{text: b.String(), cut: cutFindings, name: "The diagnosis"}}
}

// mdHistory is the chart and history section: the score's history under baselines/.
func (r *Report) mdHistory(MarkdownOptions) []block {
	var b strings.Builder
	b.WriteString(r.MermaidChart())
	if h := r.historyLine(); h != "" {
		fmt.Fprintf(&b, "<sub>%s</sub>\n\n", h)
	}
	return []block{{text: b.String(), cut: cutHistory, name: "The history"}}
}

// mdTables: repeatability and judge lines, the breakdown and gate tables, the item
// lists, the tags, the grade and the command that reproduces the result.
func (r *Report) mdTables(MarkdownOptions) []block {
	var b strings.Builder
	if rep := r.repeatability(); rep != "" {
		fmt.Fprintf(&b, "%s\n\n", Escape(rep))
	}
	for _, l := range r.judgeLines() {
		fmt.Fprintf(&b, "<sub>%s</sub>\n\n", Escape(l))
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
	blocks := []block{{text: b.String(), cut: cutTables, name: "The tables"}}

	var lists strings.Builder
	if d := r.Regression; d != nil && len(d.Evidence) > 0 {
		fmt.Fprintf(&lists, "\n<details open><summary>Evidence: the items that carried the decision (%d)</summary>\n\n", len(d.Evidence))
		rows = nil
		for _, e := range d.Evidence {
			rows = append(rows, []string{"`" + EscapeTrunc(e.ID, 60) + "`", fmt.Sprintf("%.3f (%s)", e.BaseScore, runs(e.BaseRuns)),
				fmt.Sprintf("%.3f", e.Predicted), fmt.Sprintf("%.3f (%s)", e.CandScore, runs(e.CandRuns)), fmt.Sprintf("%.1f", e.Z)})
		}
		mdTable(&lists, []string{"Item", "Baseline", "Expected", "PR", "z"}, rows)
		lists.WriteString("\n</details>\n")
	}
	title, items := r.Failing()
	if len(items) > 0 {
		fmt.Fprintf(&lists, "\n<details><summary>%s (%d)</summary>\n\n", title, r.FailingTotal())
		rows = nil
		for i, it := range items {
			if i == MaxListedItems {
				break
			}
			loc := r.SuiteFile
			if it.Line > 0 { // an imported record inside a JSON document or an archive has no line
				loc = fmt.Sprintf("%s:%d", r.SuiteFile, it.Line)
			}
			rows = append(rows, []string{"`" + EscapeTrunc(it.ID, 60) + "`", Escape(loc), fmt.Sprintf("%.3f", it.Score),
				EscapeTrunc(it.Reason(), 80), EscapeTrunc(it.Got, 80)})
		}
		mdTable(&lists, []string{"Item", "Suite line", "Score", "Why", "Output"}, rows)
		if n := r.FailingTotal() - min(len(items), MaxListedItems); n > 0 {
			fmt.Fprintf(&lists, "\n…and %d more (see the full report).\n", n)
		}
		lists.WriteString("\n</details>\n")
	}
	if len(r.Summary.Pending) > 0 {
		fmt.Fprintf(&lists, "\n<details><summary>%s</summary>\n\n", r.PendingTitle())
		for i, id := range r.Summary.Pending {
			if i == MaxListedItems {
				fmt.Fprintf(&lists, "- …and %d more\n", len(r.Summary.Pending)-MaxListedItems)
				break
			}
			fmt.Fprintf(&lists, "- `%s`\n", EscapeTrunc(id, 60))
		}
		lists.WriteString("\n</details>\n")
	}
	if c := r.Comparison; c != nil {
		detailsList(&lists, fmt.Sprintf("Biggest score drops (%d)", len(c.BiggestDrops)), c.BiggestDrops, func(ch baseline.ItemChange) string {
			return fmt.Sprintf("`%s` %.3f → %.3f (%s)", EscapeTrunc(ch.ID, 60), ch.BaseScore, ch.CandScore, passWord(ch.CandPass))
		})
		detailsList(&lists, fmt.Sprintf("Newly passing items (%d)", c.NumNewlyPassing()), c.NewlyPassing, func(ch baseline.ItemChange) string {
			return fmt.Sprintf("`%s` %.3f → %.3f", EscapeTrunc(ch.ID, 60), ch.BaseScore, ch.CandScore)
		})
		detailsList(&lists, fmt.Sprintf("Unstable items (%d): flip between baseline runs, never counted as newly failing", c.NumUnstable()), c.Unstable, func(ch baseline.ItemChange) string {
			return fmt.Sprintf("`%s` baseline pass rate %.2f, PR %s", EscapeTrunc(ch.ID, 60), ch.BasePassRate, passWord(ch.CandPass))
		})
	}
	blocks = append(blocks, block{text: lists.String(), cut: cutItemLists, name: "Item lists"})

	var tagsB strings.Builder
	if tags := r.tagRows(); len(tags) > 0 {
		fmt.Fprintf(&tagsB, "\n<details><summary>By tag (%d)</summary>\n\n", len(tags))
		for _, row := range tags {
			row[0] = "`" + EscapeTrunc(row[0], 40) + "`"
		}
		mdTable(&tagsB, []string{"Tag", "Items", "Baseline", "PR", "Δ"}, tags)
		tagsB.WriteString("\n</details>\n")
	}
	blocks = append(blocks, block{text: tagsB.String(), cut: cutTags, name: "The tag table"})

	var tail strings.Builder
	fmt.Fprintf(&tail, "\n%s\n", Escape(r.gradeLine()))
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

var htmlReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "@", "&#64;", "|", "&#124;")

func htmlEscape(s string) string { return htmlReplacer.Replace(Visible(s)) }

// notes are the comparison's remarks (re-scoring, suite changes).
func notes(r *Report) []string {
	var out []string
	if n := r.judgeChangeNotice(); n != "" {
		out = append(out, n)
	}
	if r.Comparison != nil {
		out = append(out, r.Comparison.Notes...)
	}
	out = append(out, r.judgeReliabilityLines()...)
	if e := r.Summary.Estimates; e != nil {
		out = append(out, estimatesNotice(e))
	}
	return out
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
