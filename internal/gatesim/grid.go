package gatesim

import (
	"fmt"
	"io"
	"runtime"
	"sync"
)

// Grid is the simulation's cells: models A and B, the four shapes, n ∈ {50, 200,
// 1000}, 1 or 3 candidate runs, no drop and drops of 2, 4 and 8 pts (6 for flaky items,
// which hold at most 7.5). Rows whose target
// is ≤ 1 % (no drop) get nullTrials, the others altTrials.
func Grid(nullTrials, altTrials int) []Cell {
	var cells []Cell
	for _, m := range []Model{ModelA, ModelB} {
		for _, sh := range []Shape{ShapeBreak, ShapeUniform, ShapeDrift, ShapeFlaky} {
			for _, n := range []int{50, 200, 1000} {
				for _, nc := range []int{1, 3} {
					for _, d := range []float64{0, 0.02, 0.04, 0.08} {
						if sh == ShapeFlaky && d > FlakyShare*FlakyP {
							d = 0.06 // the flaky items hold at most 7.5 pts
						}
						t := altTrials
						if d == 0 {
							t = nullTrials
						}
						cells = append(cells, Cell{Model: m, Shape: sh, Items: n, CandRuns: nc, Drop: d, Trials: t})
					}
				}
			}
		}
	}
	return cells
}

// RunAll simulates every cell on every CPU, in cell order.
func RunAll(cells []Cell) ([]Result, error) {
	res := make([]Result, len(cells))
	errs := make([]error, len(cells))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res[i], errs[i] = Run(cells[i])
			}
		}()
	}
	for i := range cells {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// WriteTables writes one markdown table per model and shape: per suite size, candidate
// runs and true drop, each method's block rate with its 95 % interval, the evidence
// method's inconclusive rate, and plain re-thresholded to evidence's false-block rate.
func WriteTables(w io.Writer, res []Result) {
	type key struct {
		m     string
		sh    Shape
		n, nc int
	}
	null := map[key]Result{}
	for _, r := range res {
		if r.Cell.Drop == 0 {
			null[key{r.Cell.Model.Name, r.Cell.Shape, r.Cell.Items, r.Cell.CandRuns}] = r
		}
	}
	var cur string
	for _, r := range res {
		c := r.Cell
		title := fmt.Sprintf("Model %s, %s", c.Model.Name, c.Shape)
		if title != cur {
			cur = title
			fmt.Fprintf(w, "\n#### %s\n\n", title)
			fmt.Fprintln(w, "| n | runs | true drop | trials | **evidence** blocks | evidence inconclusive | plain blocks | significance blocks | plain re-thresholded |")
			fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		}
		drop := "none"
		if c.Drop > 0 {
			drop = fmt.Sprintf("%.0f pts", 100*c.Drop)
		}
		nr := null[key{c.Model.Name, c.Shape, c.Items, c.CandRuns}]
		fbEv := float64(nr.Fails["evidence"]) / float64(max(nr.Cell.Trials, 1))
		re := "—"
		if c.Drop > 0 {
			re = fmt.Sprintf("%.1f %%", 100*Rethresholded(nr, r, fbEv))
		}
		fmt.Fprintf(w, "| %d | %d | %s | %d | **%s** | %s | %s | %s | %s |\n", c.Items, c.CandRuns, drop, c.Trials,
			rateCell(r.Fails["evidence"], c.Trials), rateCell(r.Inconclusive["evidence"], c.Trials),
			rateCell(r.Fails["plain"], c.Trials), rateCell(r.Fails["significance"], c.Trials), re)
	}
}

// rateCell prints a rate with its 95 % interval: "4.2 % [3.1, 5.6]".
func rateCell(k, n int) string {
	p, lo, hi := Rate(k, n)
	return fmt.Sprintf("%.1f %% [%.1f, %.1f]", 100*p, 100*lo, 100*hi)
}
