package ghaction

import (
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
)

// The check run's conclusion follows the verdict: a verdict that blocks fails the
// check (fail; inconclusive under regression.inconclusive: block), an inconclusive one
// that does not block and an accepted one are neutral, pass and warn succeed.
func TestConclusionFollowsTheVerdict(t *testing.T) {
	for _, c := range []struct {
		status gate.Status
		blocks bool
		want   github.Conclusion
	}{
		{gate.Pass, false, github.ConclusionSuccess},
		{gate.Warn, false, github.ConclusionSuccess},
		{gate.Inconclusive, false, github.ConclusionNeutral},
		{gate.Inconclusive, true, github.ConclusionFailure},
		{gate.Fail, true, github.ConclusionFailure},
		{gate.Accepted, false, github.ConclusionNeutral},
	} {
		if got := github.Conclusion((&Outcome{Verdict: c.status, Blocks: c.blocks}).verdict().Conclusion()); got != c.want {
			t.Errorf("Conclusion(%s, blocks %v) = %s; want %s", c.status, c.blocks, got, c.want)
		}
	}
}
