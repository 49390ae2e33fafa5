package settle

import (
	"slices"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
)

// Variance per run r·(1 − r): 1/2 → 0.25, 1/3 and 2/3 → 0.2222, 0.2 → 0.16. So a
// (0.2), b (2/3), c (1/2), d (1/3) order as c, b, d, a (b before d: the suite's order).
func TestNoisyItems(t *testing.T) {
	c := &baseline.Comparison{Unstable: []baseline.ItemChange{
		{ID: "a", BasePassRate: 0.2}, {ID: "b", BasePassRate: 2.0 / 3}, {ID: "c", BasePassRate: 0.5}, {ID: "d", BasePassRate: 1.0 / 3}}}
	if got := NoisyItems(c); !slices.Equal(got, []string{"c", "b", "d", "a"}) {
		t.Errorf("NoisyItems = %v; want [c b d a]", got)
	}
	if NoisyItems(nil) != nil {
		t.Error("no comparison: want no items")
	}
}

// When the drop's size is unsure, a round re-runs the evidence, then the noisy items,
// then the others: evidence e1, noisy n1 n2, budget 10 → round size 1 + 2 = 3, picked
// e1, n1, n2; when the test already rejects "no drop" (only the size is open), the
// noisy items alone: size 2. When the size is over max_drop and only whether the drop
// stands out is open, it re-runs the evidence alone: size 1, e1.
func TestRoundTakesNoisyItems(t *testing.T) {
	look := Look{Evidence: []string{"e1"}, Noisy: []string{"n1", "n2"}, SizeUnsure: true}
	n := roundSize(look, Result{}, Options{Budget: 10}, 0)
	if n != 3 {
		t.Fatalf("round size %d; want 3", n)
	}
	got := pick(append(look.Evidence, roundNoisy(look)...), []string{"x", "n2", "e1", "n1"}, map[string]int{}, n)
	if !slices.Equal(got, []string{"e1", "n1", "n2"}) {
		t.Errorf("picked %v; want [e1 n1 n2]", got)
	}
	look.Significant = true
	if n := roundSize(look, Result{}, Options{Budget: 10}, 0); n != 2 || len(roundEvidence(look)) != 0 {
		t.Errorf("significant, size unsure: round size %d, evidence %v; want 2, none", n, roundEvidence(look))
	}
	look.SizeUnsure, look.Significant = false, false
	if n := roundSize(look, Result{}, Options{Budget: 10}, 0); n != 1 || len(roundNoisy(look)) != 0 {
		t.Errorf("size over max_drop: round size %d, noisy %v; want 1, none", n, roundNoisy(look))
	}
	look.Evidence = nil
	if got := roundNoisy(look); !slices.Equal(got, []string{"n1", "n2"}) {
		t.Errorf("no evidence: noisy %v; want [n1 n2]", got)
	}
}
