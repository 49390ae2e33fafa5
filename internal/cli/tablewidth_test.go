package cli_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rivo/uniseg"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/report"
)

// TestTableWidth renders every example for terminals 80 and 120 columns wide: no line
// is wider than the terminal, every line of a table has the same width (the borders
// line up), and every listed item id is printed whole.
func TestTableWidth(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, err := cli.Check(context.Background(), c.options())
			if err != nil {
				t.Fatal(err)
			}
			_, failing := r.Failing()
			for _, width := range []int{80, 120} {
				var buf bytes.Buffer
				if err := r.WriteTerminal(&buf, report.Terminal{Width: width}); err != nil {
					t.Fatal(err)
				}
				out := buf.String()
				tableWidth := 0
				for i, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
					w := uniseg.StringWidth(line)
					if w > width {
						t.Errorf("width %d: line %d is %d columns: %s", width, i+1, w, line)
					}
					switch {
					case strings.HasPrefix(line, "+") || strings.HasPrefix(line, "|"):
						if tableWidth == 0 {
							tableWidth = w
						} else if w != tableWidth {
							t.Errorf("width %d: line %d is %d columns, its table's first line %d: %s", width, i+1, w, tableWidth, line)
						}
					default:
						tableWidth = 0
					}
				}
				for i, it := range failing {
					if i < report.MaxListedItems && !strings.Contains(out, "| "+it.ID+" ") {
						t.Errorf("width %d: item id %q is not printed whole", width, it.ID)
					}
				}
			}
		})
	}
}
