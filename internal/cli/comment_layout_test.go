package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// statText is what only the statistics section may say: an interval, a p-value, the
// resolving power, a z-score column.
var statText = regexp.MustCompile(`(?i)\binterval\b|\bCI\b|\bp\s*(=|&lt;|<|≥|&gt;)|resolving power|detects drops|\| +z +\|`)

// statisticsDetails is the comment's one statistics section.
var statisticsDetails = regexp.MustCompile(`(?s)\n<details><summary>Statistics: [^\n]*</summary>.*?</details>\n`)

// Every comment the goldens hold (every example, and the action's sticky comments)
// says nothing statistical outside its one statistics <details>, and has at most one.
func TestCommentStatisticsOnlyInTheirDetails(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.markdown")
	more, _ := filepath.Glob("testdata/action/comment-*.md")
	files = append(files, more...)
	if len(files) < 6 {
		t.Fatalf("found %d comments; the goldens moved?", len(files))
	}
	compared := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		md := string(b)
		secs := statisticsDetails.FindAllString(md, -1)
		if n := len(secs); n > 1 {
			t.Errorf("%s: %d statistics sections; want at most one", f, n)
		} else if n == 1 {
			compared++
			if !statText.MatchString(secs[0]) { // the pattern finds what it looks for
				t.Errorf("%s: the statistics section has no interval, p-value or resolving power:\n%s", f, secs[0])
			}
		}
		outside := statisticsDetails.ReplaceAllString(md, "\n")
		if m := statText.FindString(outside); m != "" {
			i := strings.Index(outside, m)
			t.Errorf("%s: %q outside the statistics <details>: …%s…", f, m, outside[max(0, i-80):min(len(outside), i+80)])
		}
	}
	if compared == 0 {
		t.Error("no comment has a statistics section: the test checks nothing")
	}
}

// The first table of a blocked pull request's comment is the newly failing items, each
// with what was expected and what came out; the table sits in an open <details>.
func TestCommentFirstTableIsTheNewlyFailingItems(t *testing.T) {
	b, err := os.ReadFile("testdata/golden/tutor-capstone-regressed.markdown")
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	first := regexp.MustCompile(`(?m)^\|.*\|$`).FindString(md)
	cells := strings.Fields(strings.ReplaceAll(first, "|", " "))
	if strings.Join(cells, ",") != "Item,Expected,Got,Why" {
		t.Errorf("first table's header %q; want Item, Expected, Got, Why", first)
	}
	open := strings.Index(md, "<details open><summary><b>Newly failing items (3)</b></summary>")
	if open < 0 || open > strings.Index(md, first) {
		t.Errorf("the newly failing items are not the first, open section:\n%s", md)
	}
	// e-39-12's output, escaped, and what it was expected to contain.
	if !strings.Contains(md, "| `e-39-12` | \\[\"ran\"\\]   | Ran. (corrió) — the past of run is ran.") {
		t.Errorf("no row for e-39-12 with expected and got:\n%s", md)
	}
}
