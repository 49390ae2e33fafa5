// Command gatesim runs the regression gate's simulation (docs/gate-trust.md) and prints
// its tables in markdown, and its runtime:
//
//	go run ./cmd/gatesim            # the full grid, ≥ 2,000 trials per no-change row (about 4 minutes on 2 CPUs)
//	go run ./cmd/gatesim -quick     # 200 trials per row, for a first look
//	go run ./cmd/gatesim -targets 400  # the trust table's cases, 400 trials each
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/gatesim"
)

func main() {
	quick := flag.Bool("quick", false, "200 trials per row instead of 2,000 (no change) and 1,000 (a drop)")
	only := flag.String("only", "", "simulate only the cells of this model and shape, e.g. \"A/stable items break\" (with -targets: the cases whose name holds it)")
	targets := flag.Int("targets", 0, "simulate the trust table's cases (run-level noise, flaky-item drops, all-pass, 1-run baselines, graded, and some with a four-release history) with this many trials each, instead of the grid")
	flag.Parse()
	if *targets > 0 {
		start := time.Now()
		for _, m := range []gatesim.Model{gatesim.ModelR, gatesim.ModelE} {
			fmt.Printf("Model %s: run-to-run std of the suite mean at 200 items %.2f pts\n", m.Name, 100*gatesim.RunSpread(m, 200, 3, 2000))
		}
		ts := gatesim.Targets(*targets)
		if *only != "" {
			var keep []gatesim.Target
			for _, t := range ts {
				if strings.Contains(t.Case, *only) {
					keep = append(keep, t)
				}
			}
			ts = keep
		}
		res, err := gatesim.RunTargets(ts)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gatesim: %v\n", err)
			os.Exit(1)
		}
		gatesim.WriteTargets(os.Stdout, ts, res)
		fmt.Printf("\nSimulated in %s on %d CPU(s).\n", time.Since(start).Round(time.Second), runtime.GOMAXPROCS(0))
		return
	}
	nullT, altT := 2000, 1000
	if *quick {
		nullT, altT = 200, 200
	}
	start := time.Now()
	cells := gatesim.Grid(nullT, altT)
	if *only != "" {
		var keep []gatesim.Cell
		for _, c := range cells {
			if c.Model.Name+"/"+string(c.Shape) == *only {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 {
			fmt.Fprintf(os.Stderr, "gatesim: no cells match -only %q; want MODEL/SHAPE such as \"A/stable items break\"\n", *only)
			os.Exit(2)
		}
		cells = keep
	}
	res, err := gatesim.RunAll(cells)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gatesim: %v\n", err)
		os.Exit(1)
	}
	gatesim.WriteTables(os.Stdout, res)
	fmt.Printf("\nSimulated in %s on %d CPU(s).\n", time.Since(start).Round(time.Second), runtime.GOMAXPROCS(0))
}
