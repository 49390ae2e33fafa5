package report

import (
	"strings"
	"testing"
)

// Blocks are cut lowest rank first, but a cut block that fits once a larger one of a
// higher rank is cut comes back. Limit 700: the headline (100), the item lists (100,
// cut first) and the tag table (1,000) make 1,200. Cutting the lists alone leaves
// 1,100 + a note, still over; cutting the tags too leaves 100 + two notes (~ 210). The
// lists' 100 then fit again (~ 310 ≤ 700): the comment keeps them and names only the
// tag table as left out.
func TestFitBlocksBringsBackWhatFitsAfterALargerCut(t *testing.T) {
	blocks := []block{
		{text: strings.Repeat("h", 100), cut: cutNever},
		{text: strings.Repeat("l", 100), cut: cutItemLists, name: "Item lists"},
		{text: strings.Repeat("t", 1000), cut: cutTags, name: "The tag table"},
	}
	got := fitBlocks(blocks, 700)
	if !strings.Contains(got, strings.Repeat("l", 100)) || strings.Contains(got, "Item lists left out") {
		t.Errorf("the item lists were left out though they fit:\n%s", got)
	}
	if strings.Contains(got, "ttt") || !strings.Contains(got, "The tag table left out") {
		t.Errorf("the tag table is not cut with a note:\n%s", got)
	}
	if len(got) > 700 {
		t.Errorf("%d chars; want ≤ 700", len(got))
	}
}
