package settle

import (
	"context"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
)

// An item that flipped between the baseline's runs (pass rate 2/3) is left out of the
// evidence re-run and counted; items that passed (rate 1) or failed (rate 0) every
// baseline run stay, in order.
func TestRerunEvidence(t *testing.T) {
	ids, flipped := RerunEvidence([]baseline.EvidenceItem{
		{ID: "broke", BasePassRate: 1}, {ID: "flaky", BasePassRate: 2.0 / 3}, {ID: "never", BasePassRate: 0},
	})
	if !slices.Equal(ids, []string{"broke", "never"}) || flipped != 1 {
		t.Errorf("RerunEvidence: %v, %d flipped; want [broke never], 1", ids, flipped)
	}
}

// A round that re-runs the evidence alone (the drop is over max_drop, only whether it
// stands out is open) re-runs as many noisy items as flipped evidence items were left
// out: one evidence item, two left out, so the two noisiest items join it.
func TestRoundReplacesFlippedEvidence(t *testing.T) {
	look := Look{Outcome: gate.Inconclusive, Evidence: []string{"c"}, Flipped: 2, Noisy: []string{"f", "g", "h"}}
	d := &fakeDecider{looks: []Look{look, {Outcome: gate.Fail}}}
	r := &fakeRerunner{}
	if _, err := Run(context.Background(), d, r, Options{Items: items10, ItemRuns: 10, Budget: 8}); err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"c", "f", "g"}}; !slices.EqualFunc(r.rounds, want, slices.Equal) {
		t.Errorf("rounds %v; want %v", r.rounds, want)
	}
}
