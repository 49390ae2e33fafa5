package gate_test

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/reliability"
)

// A judged dimension whose judge changed since the baseline measured it has no
// reliability figure: the old judge's α is not borrowed. Like a judge under the floor,
// its drop alone cannot block; it adds no measured noise.
func TestAChangedJudgesDropAloneCannotBlock(t *testing.T) {
	un := []reliability.Unmeasured{{Dimension: "accuracy", Judge: "default", Weight: 0.5,
		Why: []string{`judge "default": model a → b`}, OldJudge: "default", OldAlpha: ptr(0.95)}}
	r := significance(t)
	// accuracy carries the whole 10-pt drop (0.5 × −20 pts).
	cmp := judgedDrop(nil, map[string]float64{"accuracy": -0.20})
	cmp.JudgeUnmeasured = un
	d := r.Decide(cmp)
	if d.Outcome != gate.Inconclusive || d.Judge == nil ||
		!strings.Contains(d.DecidedBy, "the drop rests on accuracy (judge default changed since the baseline measured its self-agreement, so the new judge's is unmeasured") ||
		!strings.Contains(d.DecidedBy, "or one whose reliability is unmeasured, cannot block by itself; without them the drop is ±0.0 pts ≤ 2.0 pts") {
		t.Fatalf("changed judge: outcome %s, decided by %q", d.Outcome, d.DecidedBy)
	}
	if d.Judge.SE != 0 || len(d.Judge.Unreliable) != 1 || d.Judge.Unreliable[0] != "accuracy" || len(d.Judge.Unmeasured) != 1 {
		t.Errorf("judge noise %+v; want SE 0 (nothing measured) and accuracy listed", d.Judge)
	}
	// Without the change the same drop blocks (no figure at all: nothing to apply).
	if d = r.Decide(judgedDrop(nil, map[string]float64{"accuracy": -0.20})); d.Outcome != gate.Fail {
		t.Errorf("no change: outcome %s (%q); want fail", d.Outcome, d.DecidedBy)
	}
	// accuracy carries 5 of the 10 points; latency's 5 are still over max_drop 2 pts.
	cmp = judgedDrop(nil, map[string]float64{"accuracy": -0.10, "latency": -0.10})
	cmp.JudgeUnmeasured = un
	if d = r.Decide(cmp); d.Outcome != gate.Fail {
		t.Errorf("drop carried by another dimension too: outcome %s (%q); want fail", d.Outcome, d.DecidedBy)
	}
}
