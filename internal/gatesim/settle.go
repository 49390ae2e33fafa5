package gatesim

import (
	"context"
	"fmt"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/settle"
)

// Settling as a strategy: a pull request whose first look is inconclusive is settled by
// settle.Run, the procedure `evalgate check --settle` runs, driven by a Decider that
// compares and decides the simulated scores (the evidence method, at each look's
// level) and a Rerunner that draws the re-run items' scores from the same noise model,
// with a fresh run-level effect per re-run batch.

// settleTrial runs the settle procedure on one pull request: the evidence method's
// outcome after settling, the extra item-runs it made, and the interval of the last
// look.
func settleTrial(p *pr) (gate.Status, int, *gate.RegressionDecision, error) {
	ids := make([]string, len(p.cand))
	pos := make(map[string]int, len(p.cand))
	for i := range ids {
		ids[i] = itemID(i)
		pos[ids[i]] = i
	}
	d := &simDecider{p: p}
	res, err := settle.Run(context.Background(), d, simRerunner{p: p, pos: pos}, settle.Options{
		Items: ids, ItemRuns: len(ids) * p.cell.CandRuns, Alpha: gate.Alpha,
	})
	if err != nil {
		return "", 0, nil, err
	}
	return res.Outcome, res.ItemRuns, d.last, nil
}

// simDecider decides the simulated comparison with every re-run so far.
type simDecider struct {
	p    *pr
	last *gate.RegressionDecision
}

func (d *simDecider) Look(_ context.Context, level float64) (settle.Look, error) {
	cmp, err := compare(d.p.base, d.p.cand, d.p.cell.CandRuns, d.p.rounds, d.p.history...)
	if err != nil {
		return settle.Look{}, err
	}
	md := MaxDrop
	rg := gate.DefaultRegression()
	rg.MaxDrop, rg.Method = &md, gate.MethodEvidence
	dec := rg.DecideAt(cmp, level)
	d.last = dec
	lk := settle.Look{Outcome: dec.Outcome, Figure: dec.DecidedBy, Noisy: settle.NoisyItems(cmp), SizeUnsure: !dec.Exceeded, Significant: dec.Rejects}
	lk.Evidence, lk.Flipped = settle.RerunEvidence(dec.Evidence)
	lk.Confirm = dec.Outcome == gate.Fail && dec.Unreplicated
	if dec.Unsure {
		lk.Evidence, lk.Flipped = settle.RerunEvidence(dec.Recheck)
		lk.Confirm = true
	}
	return lk, nil
}

// simRerunner re-runs items by drawing one more run of each, as one batch.
type simRerunner struct {
	p   *pr
	pos map[string]int
}

func (r simRerunner) Rerun(_ context.Context, _ int, ids []string, _ float64) error {
	idx := make([]int, 0, len(ids))
	for _, id := range ids {
		i, ok := r.pos[id]
		if !ok {
			return fmt.Errorf("gatesim: re-run of unknown item %q", id)
		}
		idx = append(idx, i)
	}
	r.p.rerun(idx)
	return nil
}
