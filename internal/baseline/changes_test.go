package baseline

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChangeListKeepsLargestMovesInSuiteOrder: past its limit a list keeps the items
// that moved most, ties to the earlier item, listed in suite order, and counts them all.
func TestChangeListKeepsLargestMovesInSuiteOrder(t *testing.T) {
	l := changeList{limit: 3}
	// Moves by position: a 0.2, b 0.5, c 0.2, d 0.9, e 0.5, f 0.1.
	// The three largest: d 0.9, then b and e at 0.5 (both beat the 0.2s): b, d, e.
	for k, m := range []struct {
		id   string
		move float64
	}{{"a", 0.2}, {"b", 0.5}, {"c", 0.2}, {"d", 0.9}, {"e", 0.5}, {"f", 0.1}} {
		l.add(ItemChange{ID: m.id}, k, m.move)
	}
	got, n := l.list()
	var ids []string
	for _, ch := range got {
		ids = append(ids, ch.ID)
	}
	if diff := cmp.Diff([]string{"b", "d", "e"}, ids); diff != "" || n != 6 {
		t.Errorf("kept %v of %d; want b, d, e of 6 (-want +got):\n%s", ids, n, diff)
	}
	// A tie at the cut keeps the earlier item: moves 0.3, 0.3, 0.3, 0.3 with room for 2 → first two.
	l = changeList{limit: 2}
	for k, id := range []string{"p", "q", "r", "s"} {
		l.add(ItemChange{ID: id}, k, 0.3)
	}
	if got, n := l.list(); len(got) != 2 || got[0].ID != "p" || got[1].ID != "q" || n != 4 {
		t.Errorf("ties kept %+v of %d; want p, q of 4", got, n)
	}
	// Under the limit: everything, in order, and no count.
	l = changeList{limit: 5}
	l.add(ItemChange{ID: "x"}, 0, 0.1)
	l.add(ItemChange{ID: "y"}, 1, 0.9)
	if got, n := l.list(); len(got) != 2 || got[0].ID != "x" || n != 0 {
		t.Errorf("under the limit: %+v, count %d; want x, y and 0", got, n)
	}
	if got, n := (&changeList{limit: 5}).list(); got != nil || n != 0 {
		t.Errorf("empty: %+v, %d; want nil, 0", got, n)
	}
}
