package main

import (
	"fmt"
	"io"
	"math"
	"sort"
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
		if c.change.shape != "none" {
			printPlain(w, alt, null)
		}
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

// printPlain prints what plain (block when the observed drop of the mean exceeds a
// threshold) catches at evalgate's false-block rate: its threshold moved to the twins'
// (1 − fb) quantile of the observed drop, fb the twins' block rate (plainAt).
func printPlain(w io.Writer, alt, null []*arm) {
	blocked := 0
	for _, a := range null {
		if a.blocked {
			blocked++
		}
	}
	fb := float64(blocked) / float64(len(null))
	thr, caught := plainAt(alt, null, fb)
	fmt.Fprintf(w, "  plain at the same false-block rate (%.1f %%): blocks over %.2f pts observed, catching %s\n", 100*fb, 100*thr, rate(caught, len(alt)))
}

// plainAt is plain's threshold when it blocks a share fb of the null arms (the smallest
// observed drop over which at most ⌊fb·n⌋ of them lie) and how many alt arms lie over it.
func plainAt(alt, null []*arm, fb float64) (float64, int) {
	drops := make([]float64, len(null))
	for i, a := range null {
		drops[i] = a.observed
	}
	sort.Float64s(drops)
	k := len(drops) - 1 - int(math.Floor(fb*float64(len(drops))+1e-9))
	thr := drops[max(k, 0)]
	caught := 0
	for _, a := range alt {
		if a.observed > thr {
			caught++
		}
	}
	return thr, caught
}

// rate prints k of n with its Wilson 95 % interval.
func rate(k, n int) string {
	p, lo, hi := gatesim.Rate(k, n)
	return fmt.Sprintf("%d/%d = %.1f %% [%.1f, %.1f]", k, n, 100*p, 100*lo, 100*hi)
}
