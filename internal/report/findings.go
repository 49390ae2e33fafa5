package report

import (
	"fmt"
	"strings"
)

// findingsMarkdown is the diagnosis at the top of the PR comment: one bullet per finding.
func (r *Report) findingsMarkdown(b *strings.Builder) {
	if len(r.Findings) == 0 {
		return
	}
	b.WriteString("**Diagnosis**\n\n")
	for _, f := range r.Findings {
		fmt.Fprintf(b, "- 🔎 %s\n", codeSpans(Truncate(f.Message, 600)))
	}
	b.WriteString("\n")
}
