package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGateTrustExampleIsTheReport checks the terminal report docs/gate-trust.md shows
// under "The verdict" against the tutor example's regressed golden table: every line of
// the doc's first text block, its "..." marking what it leaves out, appears in the
// golden report in order (the golden wraps at 80 columns, so white space is compared
// collapsed). The doc's example had kept an old headline ("regression gate "regression"
// failed: ...") long after the report changed.
func TestGateTrustExampleIsTheReport(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "gate-trust.md"))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "golden", "tutor-capstone-regressed.table"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```text\n")
	if !ok {
		t.Fatal("docs/gate-trust.md has no text block")
	}
	block, _, _ = strings.Cut(block, "```")
	report := strings.Join(strings.Fields(string(golden)), " ")
	at := 0
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		for _, part := range strings.Split(line, "...") {
			part = strings.Join(strings.Fields(part), " ")
			if part == "" || part == ";" {
				continue
			}
			i := strings.Index(report[at:], part)
			if i < 0 {
				t.Errorf("docs/gate-trust.md's example shows %q, which the report (testdata/golden/tutor-capstone-regressed.table) does not print after what the example shows before it", part)
				continue
			}
			at += i + len(part)
		}
	}
}
