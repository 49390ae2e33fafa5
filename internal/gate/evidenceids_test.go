package gate

import (
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
)

// The decision's text names its evidence items; renderers read a backticked part of
// that text as a code span (a command), so an id's own backtick is written \x60 and
// cannot open one: "tick`id`x" reads tick\x60id\x60x.
func TestEvidenceListKeepsBackticksInIdsInert(t *testing.T) {
	d := RegressionDecision{Evidence: []baseline.EvidenceItem{{ID: "tick`id`x"}, {ID: "plain id"}}}
	if got, want := evidenceList(d), "; evidence: tick\\x60id\\x60x, plain id"; got != want {
		t.Errorf("evidenceList = %q; want %q", got, want)
	}
}
