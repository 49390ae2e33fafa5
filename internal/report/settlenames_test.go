package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/stats"
)

// The settle hint names the items that carried the evidence, the first five by id and
// the rest counted, each escaped: an id's backtick cannot open a code span (the
// command's own span stays whole), markdown and HTML in it are text, and a bidi
// control shows as U+202E.
func TestSettleHintNamesTheEvidenceItems(t *testing.T) {
	r := inconclusiveReport(t, stats.EvidenceResult{Drop: 0.05, SE: 0.02, PValue: 0.3})
	d := r.Regression
	for _, id := range []string{"q1`x", "*bold*", "<b>hi</b>", "rtl\u202eevil", "q5", "q6", "q7"} {
		d.Evidence = append(d.Evidence, baseline.EvidenceItem{ID: id})
	}
	d.RerunCommand = "evalgate check --settle"
	want := "Items that carried the evidence: q1\\x60x, *bold*, <b>hi</b>, rtlU+202Eevil, q5 and 2 more. To settle it, re-run the evidence items and check again: `evalgate check --settle`"
	if lines := r.decisionLines(); len(lines) == 0 || lines[0] != want {
		t.Fatalf("decision lines %q; want first\n%q", lines, want)
	}
	md := r.Markdown(MarkdownOptions{})
	var line string // the settle hint's paragraph (the statistics section lists every item apart)
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "Items that carried the evidence") {
			line = l
		}
	}
	for _, s := range []string{`q1\\x60x`, `\*bold\*`, "&lt;b&gt;hi&lt;/b&gt;", "rtlU+202Eevil", "q5 and 2 more", "<code>evalgate check --settle</code>"} {
		if !strings.Contains(line, s) {
			t.Errorf("markdown's settle hint lacks %q:\n%s", s, line)
		}
	}
	if strings.Contains(line, "q6") || strings.Contains(line, "<b>hi") || strings.Count(line, "<code>") != 1 {
		t.Errorf("markdown's settle hint names a sixth id, leaves HTML unescaped or splits the command's code span:\n%s", line)
	}
	// A hint instead of a command names them too; no evidence, no names.
	d.RerunCommand, d.RerunHint = "", "re-run the evidence items and check again with their results file added as `--rerun FILE`"
	if l := r.decisionLines(); len(l) == 0 || !strings.HasPrefix(l[0], "Items that carried the evidence: q1") {
		t.Errorf("hint line %q; want it to name the items", l)
	}
	d.Evidence = nil
	if l := r.decisionLines(); len(l) == 0 || strings.Contains(l[0], "Items that carried") {
		t.Errorf("hint line %q; want no names without evidence", l)
	}
}
