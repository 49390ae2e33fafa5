package gatesim

import (
	"fmt"
	"os"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
)

func TestZZDiag(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	cells := []Cell{
		{Model: ModelR, Shape: ShapeBreak, Items: 200, CandRuns: 3},
		{Model: ModelE, Shape: ShapeBreak, Items: 200, CandRuns: 1},
		{Model: ModelE, Shape: ShapeBreak, Items: 200, CandRuns: 3},
		{Model: ModelA, Shape: ShapeFlaky, Items: 200, CandRuns: 3, Drop: 0.04},
	}
	trials := 300
	for _, c := range cells {
		var fails, incon, wOnly, uOnly, both int
		var sumDrop, sumBias float64
		for tr := 1; tr <= trials; tr++ {
			base, cand := Draw(c, uint64(tr))
			cmp, err := compare(base, cand, len(cand[0]), nil)
			if err != nil {
				t.Fatal(err)
			}
			md := MaxDrop
			rg := gate.DefaultRegression()
			rg.MaxDrop, rg.Method = &md, gate.MethodEvidence
			d := rg.Decide(cmp)
			ev := cmp.Evidence
			sumDrop += ev.Drop
			_ = sumBias
			if d.Outcome == gate.Inconclusive {
				incon++
			}
			if d.Outcome == gate.Fail {
				fails++
				w := ev.PW/0.8 < 0.05
				u := ev.PU/0.2 < 0.05
				switch {
				case w && u:
					both++
				case w:
					wOnly++
				case u:
					uOnly++
				}
				if os.Getenv("ZZV") != "" {
					fmt.Printf("   est %.2f pw %.3g gw %.3g pu %.3g gu %.3g df %.0f tauW %.3g tau %.3g\n", 100*ev.Drop, ev.PW, ev.GuardW, ev.PU, ev.GuardU, ev.DF, ev.RunNoise.Weighted, ev.RunNoise.Variance)
				}
			}
		}
		fmt.Printf("%s %s runs %d drop %.2f: fail %d incon %d (w %d u %d both %d) mean est %.2f\n", c.Model.Name, c.Shape, c.CandRuns, c.Drop, fails, incon, wOnly, uOnly, both, 100*sumDrop/float64(trials))
	}
}
