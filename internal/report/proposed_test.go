package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
)

// The proposed-gate line says how the accept label applies the proposed gate as
// docs/action.md ("Accepting") does: to the commit it was applied to, in the run that
// applying it starts (under workflow_run, a re-run once it is on), and again after a
// push only once removed and re-applied; never "now" whatever run it is.
func TestProposedLineSaysHowTheLabelAccepts(t *testing.T) {
	r := &Report{Proposed: &ProposedGate{Config: "evalgate.yaml", BaseConfig: "evalgate.yaml", Scored: true,
		Verdict: gate.Pass, Score: 0.9, AcceptLabel: "evalgate/accept", Changes: []string{"weight of correctness 0.60 → 0.10"}}}
	blocks := r.mdProposed(MarkdownOptions{})
	if len(blocks) != 1 {
		t.Fatalf("%d blocks; want 1", len(blocks))
	}
	md := blocks[0].text
	for _, want := range []string{
		"the proposed one applies once merged, or to this commit alone if a maintainer with write access applies the <code>evalgate/accept</code> label while it is the head",
		"the label counts only in the run that applying it starts (under <code>workflow_run</code>, re-run this workflow once it is on)",
		"a later push needs it removed and applied again",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("proposed line lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "now if a maintainer") {
		t.Errorf("proposed line says the label applies now:\n%s", md)
	}
}
