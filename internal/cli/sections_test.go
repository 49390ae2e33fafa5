package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdSection finds the titles of the comment's sections: collapsed lists and bold
// headings.
var mdSection = regexp.MustCompile(`<summary>(.*?)</summary>|(?m)^\*\*([A-Z][^*]*)\*\*$|(History:|Reproduce locally:)`)

// TestTerminalShowsEverySection checks, for every golden report, that each section of
// the markdown comment (newly failing, newly passing, unstable items, the gates, tags,
// diagnosis, history, the command) also appears in the terminal table under the same
// title.
func TestTerminalShowsEverySection(t *testing.T) {
	t.Parallel()
	mds, _ := filepath.Glob("testdata/golden/*.markdown")
	if len(mds) == 0 {
		t.Fatal("no golden markdown")
	}
	for _, md := range mds {
		mdText, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		table, err := os.ReadFile(strings.TrimSuffix(md, ".markdown") + ".table")
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(string(table)), " ") // titles may wrap
		for _, m := range mdSection.FindAllStringSubmatch(string(mdText), -1) {
			title := m[1] + m[2] + m[3]
			title = strings.ReplaceAll(title, "&#64;", "@")
			title = strings.NewReplacer("<b>", "", "</b>", "").Replace(title)
			if title == "Chart and history" {
				continue // the chart is the comment's; the terminal has the history line
			}
			// A summary names its section, then says what it holds ("Statistics: …",
			// "Gates: all 5 pass"): the terminal has the section under the name.
			if name, _, ok := strings.Cut(title, ": "); ok && (name == "Statistics" || name == "Gates") {
				title = name + ":"
			}
			if !strings.Contains(strings.ToLower(flat), strings.ToLower(title)) {
				t.Errorf("%s: the markdown has the section %q; the terminal table does not", md, title)
			}
		}
	}
}
