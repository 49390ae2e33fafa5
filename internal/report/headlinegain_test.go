package report

import (
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
)

// A pass whose drop is negative is a gain: the headline says "estimated gain 2.5 pts",
// not "estimated drop −2.5 pts" beside a limit on drops that says nothing about it.
// An item that newly fails is still counted. A drop of zero, or a positive one within
// the limit, keeps the limit.
func TestHeadlineCallsANegativeDropAGain(t *testing.T) {
	for _, c := range []struct {
		name    string
		value   float64 // the estimated drop, as a fraction (−0.025 is a 2.5-pt gain)
		failing int
		want    string
	}{
		{"gain", -0.025, 0, "estimated gain 2.5 pts"},
		{"gain with an item newly failing", -0.025, 1, "estimated gain 2.5 pts (1 item newly fails)"},
		{"no change", 0, 0, "estimated drop 0.0 pts, within the 2.0 pts allowed"},
		{"a small drop", 0.012, 0, "estimated drop 1.2 pts, within the 2.0 pts allowed"},
	} {
		d := &gate.RegressionDecision{Gate: "regression", Statistic: "estimated drop", Value: c.value, Threshold: 0.02, Mode: gate.Absolute, Outcome: gate.Pass}
		r := &Report{Comparison: &baseline.Comparison{NewlyFailingCount: c.failing}}
		if got := r.dropSentence(d); got != c.want {
			t.Errorf("%s: %q; want %q", c.name, got, c.want)
		}
	}
}
