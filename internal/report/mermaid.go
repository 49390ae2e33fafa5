package report

import (
	"fmt"
	"strings"
)

// maxChartDimensions bounds the bars the chart draws; a wider rubric is read in the
// breakdown table instead.
const maxChartDimensions = 20

// MermaidChart is the comment's chart: a mermaid xychart-beta of the baseline (line)
// and this pull request (bars) per dimension, plus the score, on the 0–1 scale. GitHub
// renders mermaid in comments and job summaries; xychart has no legend, so a caption
// says which is which. It is empty when there is no comparison to draw.
func (r *Report) MermaidChart() string {
	c := r.Comparison
	if c == nil || len(c.Dimensions) == 0 || len(c.Dimensions) > maxChartDimensions {
		return ""
	}
	var names, base, cand []string
	for _, d := range c.Dimensions {
		names = append(names, mermaidString(d.Name))
		base = append(base, chartNum(d.Base))
		cand = append(cand, chartNum(d.Cand))
	}
	names = append(names, `"score"`)
	base = append(base, chartNum(c.Base))
	cand = append(cand, chartNum(c.Cand))
	var b strings.Builder
	b.WriteString("```mermaid\nxychart-beta\n")
	b.WriteString("    title \"Baseline vs this pull request\"\n")
	fmt.Fprintf(&b, "    x-axis [%s]\n", strings.Join(names, ", "))
	b.WriteString("    y-axis \"mean (0 to 1)\" 0 --> 1\n")
	fmt.Fprintf(&b, "    bar [%s]\n", strings.Join(cand, ", "))
	fmt.Fprintf(&b, "    line [%s]\n", strings.Join(base, ", "))
	b.WriteString("```\n\n")
	fmt.Fprintf(&b, "<sub>Bars: this pull request · line: baseline (%s) · per dimension, then the score.</sub>\n\n", Escape(c.BaselineFile))
	return b.String()
}

// mermaidString quotes a label for mermaid; dimension names are identifiers, and
// anything else is reduced to characters a quoted label can hold.
func mermaidString(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '"', '`', '\n', '\r', '[', ']', ',', ';', '#':
			return '_'
		}
		return r
	}, Truncate(s, 30))
	return `"` + s + `"`
}

func chartNum(x float64) string {
	s := fmt.Sprintf("%.3f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "" || s == "-" {
		return "0"
	}
	return s
}
