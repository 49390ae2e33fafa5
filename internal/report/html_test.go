package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
)

// Above the stated size the page embeds the failing, flipped and biggest-drop items and
// says so; a passing item nothing names is left out.
func TestHTMLEmbedsTheItemsThatMatterAboveItsSize(t *testing.T) {
	defer func(n int) { htmlFullItems = n }(htmlFullItems)
	htmlFullItems = 3
	r := &Report{Suite: "s", Summary: Summary{Items: 5}, Dimensions: []Dimension{{Name: "d", Weight: 1}},
		Comparison: &baseline.Comparison{
			NewlyPassing: []baseline.ItemChange{{ID: "fixed", BaseScore: 0.2}},
			BiggestDrops: []baseline.ItemChange{{ID: "dropped", BaseScore: 1}},
		}}
	for _, it := range []Item{
		{ID: "quiet", Pass: true, Score: 1},
		{ID: "failing", Score: 0},
		{ID: "fixed", Pass: true, Score: 1},
		{ID: "dropped", Pass: true, Score: 0.8},
		{ID: "quiet-too", Pass: true, Score: 1},
	} {
		it.Weighted = []KV{{"d", it.Score}}
		r.Items = append(r.Items, it)
	}
	items, partial := r.htmlItems()
	if got := strings.Join(items.ID, " "); got != "failing fixed dropped" {
		t.Errorf("embedded %q; want the failing, flipped and biggest-drop items", got)
	}
	if !strings.Contains(partial, "This suite has 5 items") {
		t.Errorf("partial note %q", partial)
	}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `id="partial"`) {
		t.Error("the page does not say it holds part of the items")
	}
	// At or under the size every item is embedded and nothing is said.
	htmlFullItems = 5
	if items, partial := r.htmlItems(); len(items.ID) != 5 || partial != "" {
		t.Errorf("%d items, note %q; want all 5 and no note", len(items.ID), partial)
	}
}
