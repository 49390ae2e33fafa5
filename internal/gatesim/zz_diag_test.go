package gatesim

import (
	"context"
	"fmt"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/settle"
)

type logDecider struct {
	simDecider
	log []string
}

func (d *logDecider) Look(ctx context.Context, level float64) (settle.Look, error) {
	lk, err := d.simDecider.Look(ctx, level)
	dec := d.last
	cmp, _ := compare(d.p.base, d.p.cand, d.p.cell.CandRuns, d.p.rounds, d.p.history...)
	ev := cmp.Evidence
	rep := -1.0
	if ev.Replication != nil {
		rep = ev.Replication.PValue
	}
	d.log = append(d.log, fmt.Sprintf("lvl %.4f %s drop %.2f p %.4g pev %.4g prep %.4g pthin %.4g pitem %.3g gw %.3g gu %.3g ev %d", level, dec.Outcome, 100*ev.Drop, ev.PValue, ev.PEvidence, rep, ev.PThin, ev.PItem, ev.GuardW, ev.GuardU, len(lk.Evidence)))
	return lk, err
}

func TestDiagTwins(t *testing.T) {
	c := &Cell{Model: ModelA, Shape: ShapeBreak, Items: 200, CandRuns: 1, Drop: 0, Trials: 1000, Settle: true}
	n := 0
	for tr := 1; tr <= 1000; tr++ {
		p := draw(*c, uint64(tr))
		ids := make([]string, len(p.cand))
		pos := map[string]int{}
		for i := range ids {
			ids[i] = itemID(i)
			pos[ids[i]] = i
		}
		d := &logDecider{simDecider: simDecider{p: p}}
		res, err := settle.Run(context.Background(), d, simRerunner{p: p, pos: pos}, settle.Options{Items: ids, ItemRuns: len(ids), Alpha: gate.Alpha})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome == gate.Fail {
			n++
			t.Logf("trial %d: %d item-runs", tr, res.ItemRuns)
			for _, l := range d.log {
				t.Logf("   %s", l)
			}
		}
	}
	t.Logf("%d fails", n)
}
