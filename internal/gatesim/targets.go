package gatesim

import (
	"fmt"
	"io"
	"math"

	"github.com/evalgate/evalgate/internal/stats"
)

// Target is one row of the trust table: a case, its no-change cell and its drop cell
// (either may be absent), under the same model.
type Target struct {
	Case       string
	Null, Drop *Cell
}

// Targets are the trust table's rows at 200 items with a 3-run baseline (unless a row
// says otherwise): run-level noise (R: on the logit scale; E: runs that fail items at
// random), drops on flaky items, stable items breaking, an all-pass suite of 1,000
// items, a 1-run baseline and graded scores; every detection row with the false-block
// rate of the same model.
func Targets(trials int) []Target {
	cell := func(m Model, sh Shape, n, runs int, drop float64, baseRuns int) *Cell {
		return &Cell{Model: m, Shape: sh, Items: n, CandRuns: runs, Drop: drop, Trials: trials, BaseRuns: baseRuns}
	}
	settled := func(c *Cell) *Cell { c.Settle = true; return c }
	var out []Target
	for _, m := range []Model{ModelR, ModelE} {
		for _, runs := range []int{1, 3} {
			out = append(out, Target{Case: fmt.Sprintf("run-level noise (%s), %d run(s) per PR; uniform 4-pt drop", m.Name, runs),
				Null: cell(m, ShapeBreak, 200, runs, 0, 0), Drop: cell(m, ShapeUniform, 200, runs, 0.04, 0)})
		}
		out = append(out, Target{Case: fmt.Sprintf("run-level noise (%s), 1 run + settle; uniform 4-pt drop", m.Name),
			Null: settled(cell(m, ShapeBreak, 200, 1, 0, 0)), Drop: settled(cell(m, ShapeUniform, 200, 1, 0.04, 0))})
	}
	for _, runs := range []int{3, 1} {
		out = append(out, Target{Case: fmt.Sprintf("flaky-item drop of 4 pts, %d run(s)", runs),
			Null: cell(ModelA, ShapeFlaky, 200, runs, 0, 0), Drop: cell(ModelA, ShapeFlaky, 200, runs, 0.04, 0)})
	}
	out = append(out,
		Target{Case: "flaky-item drop of 4 pts, 1 run + settle", Null: settled(cell(ModelA, ShapeFlaky, 200, 1, 0, 0)), Drop: settled(cell(ModelA, ShapeFlaky, 200, 1, 0.04, 0))},
		Target{Case: "stable items break, 4 pts, 1 run", Null: cell(ModelA, ShapeBreak, 200, 1, 0, 0), Drop: cell(ModelA, ShapeBreak, 200, 1, 0.04, 0)},
		Target{Case: "stable items break, 4 pts, 1 run + settle", Null: settled(cell(ModelA, ShapeBreak, 200, 1, 0, 0)), Drop: settled(cell(ModelA, ShapeBreak, 200, 1, 0.04, 0))},
		Target{Case: "stable items break (model B, stable at 0.97), 4 pts, 1 run + settle", Null: settled(cell(ModelB, ShapeBreak, 200, 1, 0, 0)), Drop: settled(cell(ModelB, ShapeBreak, 200, 1, 0.04, 0))},
		Target{Case: "all-pass suite, 1,000 items, 1 run, 2.5-pt break", Null: cell(ModelP, ShapeBreak, 1000, 1, 0, 0), Drop: cell(ModelP, ShapeBreak, 1000, 1, 0.025, 0)},
		Target{Case: "1-run baseline, stable items break 4 pts, 1 run", Null: cell(ModelA, ShapeBreak, 200, 1, 0, 1), Drop: cell(ModelA, ShapeBreak, 200, 1, 0.04, 1)},
		Target{Case: "1-run baseline, stable items break 4 pts, 1 run + settle", Null: settled(cell(ModelA, ShapeBreak, 200, 1, 0, 1)), Drop: settled(cell(ModelA, ShapeBreak, 200, 1, 0.04, 1))},
		Target{Case: "graded scores, drift of 4 pts, 1 run", Null: cell(ModelA, ShapeDrift, 200, 1, 0, 0), Drop: cell(ModelA, ShapeDrift, 200, 1, 0.04, 0)},
	)
	// With a history: the same cases when the suite's history holds HistoryReleases
	// earlier releases of BaselineRuns runs each, whose spread adds degrees of freedom
	// to the run-level noise.
	hist := func(c *Cell) *Cell { c.History = HistoryReleases; return c }
	for _, m := range []Model{ModelR, ModelE} {
		for _, runs := range []int{1, 3} {
			out = append(out, Target{Case: fmt.Sprintf("with history: run-level noise (%s), %d run(s) per PR; uniform 4-pt drop", m.Name, runs),
				Null: hist(cell(m, ShapeBreak, 200, runs, 0, 0)), Drop: hist(cell(m, ShapeUniform, 200, runs, 0.04, 0))})
		}
	}
	out = append(out,
		Target{Case: "with history: flaky-item drop of 4 pts, 3 runs", Null: hist(cell(ModelA, ShapeFlaky, 200, 3, 0, 0)), Drop: hist(cell(ModelA, ShapeFlaky, 200, 3, 0.04, 0))},
		Target{Case: "with history: flaky-item drop of 4 pts, 1 run + settle", Null: hist(settled(cell(ModelA, ShapeFlaky, 200, 1, 0, 0))), Drop: hist(settled(cell(ModelA, ShapeFlaky, 200, 1, 0.04, 0)))},
		Target{Case: "with history: stable items break, 4 pts, 1 run + settle", Null: hist(settled(cell(ModelA, ShapeBreak, 200, 1, 0, 0))), Drop: hist(settled(cell(ModelA, ShapeBreak, 200, 1, 0.04, 0)))},
	)
	return out
}

// HistoryReleases is how many earlier releases the trust table's "with history" rows
// give the suite's history.
const HistoryReleases = 4

// RunSpread is a model's run-to-run std of the suite mean at n items: the root mean
// square, over trials suites, of the sample std of runs runs' means.
func RunSpread(m Model, n, runs, trials int) float64 {
	var sum float64
	for t := range trials {
		c := Cell{Model: m, Shape: ShapeBreak, Items: n, CandRuns: runs, BaseRuns: 1}
		_, cand := Draw(c, uint64(t+1))
		means := make([]float64, runs)
		for r := range runs {
			for i := range cand {
				means[r] += cand[i][r]
			}
			means[r] /= float64(n)
		}
		s := stats.SampleStd(means)
		sum += s * s
	}
	return math.Sqrt(sum / float64(trials))
}

// RunTargets simulates every target's cells on every CPU.
func RunTargets(ts []Target) (map[*Cell]Result, error) {
	var cells []Cell
	var ptrs []*Cell
	for _, t := range ts {
		for _, c := range []*Cell{t.Null, t.Drop} {
			if c != nil {
				cells, ptrs = append(cells, *c), append(ptrs, c)
			}
		}
	}
	res, err := RunAll(cells)
	if err != nil {
		return nil, err
	}
	out := map[*Cell]Result{}
	for i, p := range ptrs {
		out[p] = res[i]
	}
	return out, nil
}

// WriteTargets writes the trust table: per case, the evidence method's false-block rate
// (and inconclusive rate) with nothing changed, its block rate on the drop, the
// interval's coverage of the true drop in both, and plain's rates beside.
func WriteTargets(w io.Writer, ts []Target, res map[*Cell]Result) {
	fmt.Fprintln(w, "| case | trials | false block (evidence) | inconclusive, no change | detection (evidence) | inconclusive, drop | coverage, no change / drop | plain: false block / detection | settle's extra item-runs, no change / drop |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, t := range ts {
		n, d := res[t.Null], res[t.Drop]
		cov := func(r Result) string {
			p, _, _ := Rate(r.Covered, r.Cell.Trials)
			return fmt.Sprintf("%.1f %%", 100*p)
		}
		plain, extra := pct(n.Fails["plain"], n.Cell.Trials)+" / "+pct(d.Fails["plain"], d.Cell.Trials), "—"
		if n.Cell.Settle {
			plain, extra = "—", extraRuns(n)+" / "+extraRuns(d)
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s / %s | %s | %s |\n", t.Case, n.Cell.Trials,
			rateCell(n.Fails["evidence"], n.Cell.Trials), rateCell(n.Inconclusive["evidence"], n.Cell.Trials),
			rateCell(d.Fails["evidence"], d.Cell.Trials), rateCell(d.Inconclusive["evidence"], d.Cell.Trials),
			cov(n), cov(d), plain, extra)
	}
}

// extraRuns is settle's mean extra item-runs per pull request, as a share of the suite.
func extraRuns(r Result) string {
	return fmt.Sprintf("%.1f %%", 100*float64(r.ExtraRuns)/float64(max(r.Cell.Trials, 1))/float64(r.Cell.Items))
}

func pct(k, n int) string { return fmt.Sprintf("%.1f %%", 100*float64(k)/float64(max(n, 1))) }
