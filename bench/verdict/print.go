package main

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/evalgate/evalgate/internal/gatesim"
)

// printCell prints a cell's figures: the run-to-run spread it drew, then each arm.
func printCell(w io.Writer, c cell, outs []trialOut, took time.Duration) {
	fmt.Fprintf(w, "%s: %s\n", c.name, c.describe())
	var ss float64
	var n int
	var alt, null []*arm
	for _, o := range outs {
		for _, d := range o.devs {
			ss += d * d
			n++
		}
		alt = append(alt, o.alt)
		if o.null != nil {
			null = append(null, o.null)
		}
	}
	if n > 0 {
		fmt.Fprintf(w, "  run-to-run spread of the suite mean (sd around its expectation): %.2f pts over %d runs\n", 100*math.Sqrt(ss/float64(n)), n)
	}
	label := "changed"
	if c.change.shape == "none" {
		label = "unchanged"
	}
	printArm(w, label, c, alt)
	if len(null) > 0 {
		printArm(w, "unchanged twin", c, null)
	}
	fmt.Fprintf(w, "  (%d trials, %s)\n\n", len(outs), took.Round(time.Second))
}

// printArm prints one arm's rates.
func printArm(w io.Writer, label string, c cell, arms []*arm) {
	var blocked, inconclusive, covered, settled, itemRuns, rounds, afterRounds int
	var sum, sumSq, truth float64
	for _, a := range arms {
		if a.blocked {
			blocked++
		}
		if a.outcome == "inconclusive" {
			inconclusive++
		}
		if a.lo-1e-9 <= a.truth && a.truth <= a.hi+1e-9 {
			covered++
		}
		if a.settled {
			settled++
			itemRuns += a.itemRuns
			rounds += a.rounds
			if a.blocked && a.rounds > 0 {
				afterRounds++
			}
		}
		sum += a.value - a.truth
		sumSq += (a.value - a.truth) * (a.value - a.truth)
		truth += a.truth
	}
	k := len(arms)
	fk := float64(k)
	what := "false block"
	if label == "changed" {
		what = "detection"
	}
	fmt.Fprintf(w, "  %s (true drop %.2f pts): %s %s · inconclusive %s · interval coverage %s\n",
		label, 100*truth/fk, what, rate(blocked, k), rate(inconclusive, k), rate(covered, k))
	bias := sum / fk
	se := math.Sqrt(math.Max(0, sumSq/fk-bias*bias) / math.Max(1, fk-1))
	fmt.Fprintf(w, "    estimate − true drop: mean %+.3f pts ± %.3f (95 %%)\n", 100*bias, 100*1.96*se)
	if c.settle {
		fmt.Fprintf(w, "    settle: ran in %d of %d, %d round(s), %d of the %d block(s) after re-runs; mean extra item-runs %.1f %% of the suite per PR (%.1f per settled PR)\n",
			settled, k, rounds, afterRounds, blocked, 100*float64(itemRuns)/fk/float64(c.noise.items), float64(itemRuns)/math.Max(1, float64(settled)))
	}
}

// rate prints k of n with its Wilson 95 % interval.
func rate(k, n int) string {
	p, lo, hi := gatesim.Rate(k, n)
	return fmt.Sprintf("%d/%d = %.1f %% [%.1f, %.1f]", k, n, 100*p, 100*lo, 100*hi)
}
