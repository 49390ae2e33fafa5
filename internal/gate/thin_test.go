package gate_test

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/stats"
)

// A first look on thin runs that a bad run could explain waits for a re-run. An
// estimated drop of 5 pts with p = 0.01 blocks at 5 %; with PThin 0.3 (the run-level
// variance at its upper bound explains it) it is inconclusive, marked ThinRuns, with a
// line that says one look cannot tell it from a bad run and names settle. PThin 0.01,
// under the level, blocks; so does PThin 0 (not a thin look). At a look that spends
// 0.5 %, p = 0.001 rejects but PThin 0.01 is over that level: inconclusive, thin.
func TestThinRunsWaitForARerun(t *testing.T) {
	r := regression(t, gate.MethodEvidence)
	cmpP := func(p, thin float64) *baseline.Comparison {
		return &baseline.Comparison{Base: 0.8, Cand: 0.75, Delta: -0.05, Compared: 100,
			Evidence: stats.EvidenceResult{Items: 100, PredictedMean: 0.8, CandMean: 0.75, Drop: 0.05, SE: 0.02, PValue: p, PThin: thin}}
	}
	cmp := func(thin float64) *baseline.Comparison { return cmpP(0.01, thin) }
	d := r.Decide(cmp(0.3))
	if d.Outcome != gate.Inconclusive || !d.ThinRuns {
		t.Fatalf("PThin 0.3: %s, thin %v; want inconclusive, thin", d.Outcome, d.ThinRuns)
	}
	if !strings.Contains(d.DecidedBy, "a run that was bad as a whole") || !strings.Contains(d.DecidedBy, "settle") {
		t.Errorf("decided by %q; want it to name a bad run and settle", d.DecidedBy)
	}
	for _, thin := range []float64{0.01, 0} {
		d := r.Decide(cmp(thin))
		if d.Outcome != gate.Fail || d.ThinRuns {
			t.Errorf("PThin %v: %s, thin %v; want fail", thin, d.Outcome, d.ThinRuns)
		}
		// The thin look's fail stands on one look (settle re-runs its evidence once
		// before it stands); with PThin 0 the runs know their spread and it stands.
		if want := thin > 0; d.Unreplicated != want {
			t.Errorf("PThin %v: unreplicated %v; want %v", thin, d.Unreplicated, want)
		}
	}
	if d := r.DecideAt(cmpP(0.001, 0.01), 0.005); d.Outcome != gate.Inconclusive || !d.ThinRuns {
		t.Errorf("p 0.001, PThin 0.01 at a look spending 0.5 %%: %s, thin %v; want inconclusive, thin", d.Outcome, d.ThinRuns)
	}
}
