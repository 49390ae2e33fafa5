package report

import (
	"bytes"
	"html"
	"regexp"
	"slices"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// An item id reads in the comment as it is written, once GitHub's markdown (GFM, here
// goldmark) renders it: in the failing items' table and in the lists, an id with "_",
// "*", "|", a backtick, HTML or an @-mention is one code element holding exactly the id,
// never "refund\_window" with a backslash and never a span cut short by a backtick.
func TestItemIDsRenderAsWritten(t *testing.T) {
	ids := []string{"refund_window", "a*b*c", "x`y", "``lead", "tail`", "p|q", "<b>x</b>", "@team & #1", `back\slash`, "[l](http://x)"}
	r := &Report{Suite: "s", SuiteFile: "suite.yaml", ScoringSystem: "scoringSystem/1.0.0", GradingSystem: "gradingSystem/1.0.0",
		Summary: Summary{Items: 2 * len(ids), Runs: 1, Pending: ids}}
	for i, id := range ids {
		r.Items = append(r.Items, Item{ID: id, Line: i + 1, Why: "wrong"})
	}
	var out bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(r.Markdown(MarkdownOptions{})), &out); err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, m := range regexp.MustCompile(`(?s)<code>(.*?)</code>`).FindAllStringSubmatch(out.String(), -1) {
		codes = append(codes, html.UnescapeString(m[1]))
	}
	for _, id := range ids {
		if n := count(codes, id); n != 2 { // the table's row and the pending list's line
			t.Errorf("id %q is a whole code element %d time(s); want 2 (code elements: %q)", id, n, codes)
		}
	}
}

func count(xs []string, x string) int {
	n := 0
	for i := slices.Index(xs, x); i >= 0; i = slices.Index(xs, x) {
		n++
		xs = xs[i+1:]
	}
	return n
}
