package gate

import (
	"fmt"
	"math"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/stats"
)

// maxRunsAdvised bounds the runs per pull request ResolvingPower suggests.
const maxRunsAdvised = 20

// power is the suite's resolving power: the smallest true drop X that the evidence
// method's one-sided test at level Alpha detects with PowerTarget power, X =
// (z(1 − Alpha) + z(PowerTarget))·SE, where SE is the standard error of the estimated
// drop on this baseline's per-item variance for the candidate's number of runs. SE is
// that of a drop spread evenly over the items, the hardest kind to see; a drop that
// breaks stable items is seen well below X.
func (r *Regression) power(cmp *baseline.Comparison) *ResolvingPower {
	ev := cmp.Evidence
	runs := max(cmp.CandidateRuns, 1)
	if ev.Items == 0 {
		return nil
	}
	k := stats.NormalQuantile(1-Alpha) + stats.NormalQuantile(PowerTarget)
	unit := func(x float64) float64 {
		if r.Mode == Relative {
			if ev.PredictedMean == 0 {
				return math.Inf(1)
			}
			return x / ev.PredictedMean
		}
		return x
	}
	x := func(m int) float64 { return unit(k * ev.SEForRuns(m)) }
	p := &ResolvingPower{Runs: runs, Items: ev.Items, Detectable: round4(x(runs))}
	maxDrop := *r.MaxDrop
	p.Enough = p.Detectable <= maxDrop
	runWord := "runs"
	if runs == 1 {
		runWord = "run"
	}
	p.Text = fmt.Sprintf("this suite (%d items), with %d %s per pull request, detects drops of ≥ %s", ev.Items, runs, runWord, FormatDrop(p.Detectable, r.Mode))
	// A thin first look (stats.EvidenceResult.PThin): the figure is what the items
	// tell; whether a run bad as a whole made the drop is for a re-run to tell.
	defer func() {
		if ev.PThin > 0 {
			p.Text += "; on this one look at so few runs, a drop that a run bad as a whole could explain waits for a re-run (settle) or more runs"
		}
	}()
	if p.Enough {
		return p
	}
	for m := runs + 1; m <= maxRunsAdvised; m++ {
		if x(m) <= maxDrop {
			p.RunsNeeded = m
			break
		}
	}
	if maxDrop > 0 && !math.IsInf(p.Detectable, 0) {
		p.ItemsNeeded = int(math.Ceil(float64(ev.Items) * (p.Detectable / maxDrop) * (p.Detectable / maxDrop)))
	}
	p.Text += fmt.Sprintf(", more than max_drop %s: drops in between are likely to come out inconclusive", FormatDrop(maxDrop, r.Mode))
	switch {
	case p.RunsNeeded > 0 && p.ItemsNeeded > 0:
		p.Text += fmt.Sprintf("; %d runs per pull request, or about %d items, would bring it under", p.RunsNeeded, p.ItemsNeeded)
	case p.ItemsNeeded > 0:
		p.Text += fmt.Sprintf("; about %d items (or more baseline runs) would bring it under", p.ItemsNeeded)
	}
	return p
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
