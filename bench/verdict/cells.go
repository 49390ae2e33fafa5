package main

import (
	"fmt"
	"strings"
)

// cell is one row of the harness's table: a noise model, a change, how many runs the
// pull request makes, and whether check settles.
type cell struct {
	name     string
	noise    noise
	change   change
	baseRuns int
	candRuns int
	settle   bool
	// paired: each trial also checks an unchanged twin (same baseline, same model, no
	// change), so the detection rate has its false-block rate beside it. A cell whose
	// change is "none" is its own twin.
	paired bool
	// history is how many earlier releases the suite's history holds: before the
	// baseline, evalgate baseline runs that many times on fresh runs of the baseline's
	// system, each as its own commit, and appends each to baselines/<suite>.history.
	history int
}

// historyReleases is the history cells' number of earlier releases.
const historyReleases = 4

// Run-level noise strong enough that the suite mean spreads by about 3.5 pts (at least
// 3) from run to run at 200 items; the harness prints the spread it drew.
const (
	shiftSD   = 0.6
	outageMax = 0.12
	addSD     = 0.03
	badDay    = 0.25
	badFail   = 0.08
)

// cells are the harness's cells, in the order printed.
func cells() []cell {
	base := noise{items: 200}
	shift := noise{items: 200, shiftSD: shiftSD}
	outage := noise{items: 200, outageMax: outageMax}
	allPass := noise{items: 1000, allPass: true}
	additive := noise{items: 200, addSD: addSD}
	bad := noise{items: 200, badDay: badDay, badFail: badFail}
	// The same shapes at twice the strength: spreads of 4–7 pts.
	strongShift := noise{items: 200, shiftSD: 2 * shiftSD}
	strongOutage := noise{items: 200, outageMax: 2 * outageMax}
	strongAdditive := noise{items: 200, addSD: 2 * addSD}
	none := change{shape: "none"}
	// Probes: shapes and mixtures no cell above was tuned on.
	mix := noise{items: 200, shiftSD: 0.45, outageMax: 0.08}
	flakyShift := noise{items: 200, shiftSD: 0.45, flaky: 0.4}
	flakyBase := noise{items: 200, flaky: 0.4}
	bad2 := noise{items: 200, badDay: 0.2, badFail: 0.15}
	judge := noise{items: 200, shiftSD: shiftSD, graded: true}
	point := noise{items: 200, flakyAt: 0.5}
	topic := noise{items: 200, topics: 8, topicSD: 1.0}
	topicRun := noise{items: 200, shiftSD: 0.4, topics: 5, topicSD: 0.8}
	// Heavy-tailed run noise: the logit shift drawn from Student's t with 3 degrees of
	// freedom (scale 0.35; its sd is √3 times that), and a suite of deterministic
	// stable items (exactly 0 or 1) with 30 % flaky items spread over [0.05, 0.95].
	heavy := noise{items: 200, shiftSD: 0.35, shiftDF: 3}
	exact := noise{items: 200, exact: true, flaky: 0.3, flakyRange: [2]float64{0.05, 0.95}, shiftSD: 0.5}
	heavyStrong := noise{items: 200, shiftSD: 0.5, shiftDF: 3}
	exactStrong := noise{items: 200, exact: true, flaky: 0.3, flakyRange: [2]float64{0.05, 0.95}, shiftSD: 0.8}
	exactQuiet := noise{items: 200, exact: true, flaky: 0.3, flakyRange: [2]float64{0.05, 0.95}}
	// Suites at the ends: every item failing, and every item passing nearly always.
	allFail := noise{items: 200, allFail: true}
	nearPass := noise{items: 1000, nearPass: true}
	nearPass200 := noise{items: 200, nearPass: true}
	// Other sizes under the same logit shift, and a bad day a third of the runs have.
	shift1000 := noise{items: 1000, shiftSD: shiftSD}
	shift50 := noise{items: 50, shiftSD: shiftSD}
	bad3 := noise{items: 200, badDay: 0.3, badFail: 0.1}
	// gatesim's model A through the binary: stable items exactly 0 or 1, 15 % flaky
	// items at exactly p = 0.5.
	modelA := noise{items: 200, exact: true, flaky: 0.15, flakyAt: 0.5}
	return []cell{
		{name: "runshift-1run", noise: shift, change: none, baseRuns: 3, candRuns: 1},
		{name: "runshift-3runs", noise: shift, change: none, baseRuns: 3, candRuns: 3},
		{name: "outage-1run", noise: outage, change: none, baseRuns: 3, candRuns: 1},
		{name: "outage-3runs", noise: outage, change: none, baseRuns: 3, candRuns: 3},
		{name: "flaky4-3runs", noise: base, change: change{"flaky", 0.04}, baseRuns: 3, candRuns: 3, paired: true},
		{name: "flaky4-1run-settle", noise: base, change: change{"flaky", 0.04}, baseRuns: 3, candRuns: 1, settle: true, paired: true},
		{name: "break4-1run-settle", noise: base, change: change{"break", 0.04}, baseRuns: 3, candRuns: 1, settle: true, paired: true},
		{name: "break4-1run-settle-1base", noise: base, change: change{"break", 0.04}, baseRuns: 1, candRuns: 1, settle: true, paired: true},
		{name: "allpass1000-1run", noise: allPass, change: change{"break", 0.025}, baseRuns: 3, candRuns: 1, paired: true},
		{name: "additive-1run", noise: additive, change: none, baseRuns: 3, candRuns: 1},
		{name: "additive-3runs", noise: additive, change: none, baseRuns: 3, candRuns: 3},
		{name: "badday-1run", noise: bad, change: none, baseRuns: 3, candRuns: 1},
		{name: "badday-3runs", noise: bad, change: none, baseRuns: 3, candRuns: 3},
		{name: "strong-shift-1run", noise: strongShift, change: none, baseRuns: 3, candRuns: 1},
		{name: "strong-shift-3runs", noise: strongShift, change: none, baseRuns: 3, candRuns: 3},
		{name: "strong-outage-1run", noise: strongOutage, change: none, baseRuns: 3, candRuns: 1},
		{name: "strong-outage-3runs", noise: strongOutage, change: none, baseRuns: 3, candRuns: 3},
		{name: "strong-additive-3runs", noise: strongAdditive, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-mix-1run", noise: mix, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-mix-3runs", noise: mix, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-flaky40-shift-1run", noise: flakyShift, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-flaky40-shift-3runs", noise: flakyShift, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-runshift-1run-settle", noise: shift, change: none, baseRuns: 3, candRuns: 1, settle: true},
		{name: "probe-outage-1run-settle", noise: outage, change: none, baseRuns: 3, candRuns: 1, settle: true},
		{name: "probe-badday-1run-settle", noise: bad, change: none, baseRuns: 3, candRuns: 1, settle: true},
		{name: "probe-break4-shift-settle", noise: shift, change: change{"break", 0.04}, baseRuns: 3, candRuns: 1, settle: true, paired: true},
		{name: "probe-flaky40-flaky4-3runs", noise: flakyBase, change: change{"flaky", 0.04}, baseRuns: 3, candRuns: 3, paired: true},
		{name: "probe-badday2-1run", noise: bad2, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-badday2-1run-settle", noise: bad2, change: none, baseRuns: 3, candRuns: 1, settle: true},
		{name: "probe-badday2-3runs", noise: bad2, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-judgedrift-1run", noise: judge, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-judgedrift-3runs", noise: judge, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-judgedrift-flaky4-3runs", noise: judge, change: change{"flaky", 0.04}, baseRuns: 3, candRuns: 3, paired: true},
		{name: "probe-judgedrift-break4-3runs", noise: judge, change: change{"break", 0.04}, baseRuns: 3, candRuns: 3, paired: true},
		{name: "probe-pointflaky-break4-settle", noise: point, change: change{"break", 0.04}, baseRuns: 3, candRuns: 1, settle: true, paired: true},
		{name: "probe-topic-1run", noise: topic, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-topic-3runs", noise: topic, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-topic-1run-settle", noise: topic, change: none, baseRuns: 3, candRuns: 1, settle: true},
		{name: "probe-topicrun-1run", noise: topicRun, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-topicrun-3runs", noise: topicRun, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-heavy-1run", noise: heavy, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-heavy-3runs", noise: heavy, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-exact-1run", noise: exact, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-exact-3runs", noise: exact, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-heavy-strong-3runs", noise: heavyStrong, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-exact-strong-3runs", noise: exactStrong, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-exact-break4-settle", noise: exactQuiet, change: change{"break", 0.04}, baseRuns: 3, candRuns: 1, settle: true, paired: true},
		{name: "probe-exact-break4-settle-1base", noise: exactQuiet, change: change{"break", 0.04}, baseRuns: 1, candRuns: 1, settle: true, paired: true},
		{name: "probe-shift-1base-3runs", noise: shift, change: none, baseRuns: 1, candRuns: 3},
		{name: "probe-shift-2base-1run", noise: shift, change: none, baseRuns: 2, candRuns: 1},
		{name: "probe-outage-1base-1run", noise: outage, change: none, baseRuns: 1, candRuns: 1},
		{name: "probe-allpass1000-1base", noise: allPass, change: change{"break", 0.025}, baseRuns: 1, candRuns: 1, paired: true},
		{name: "probe-shift-1base-1run", noise: shift, change: none, baseRuns: 1, candRuns: 1},
		{name: "probe-shift-1base-1run-settle", noise: shift, change: none, baseRuns: 1, candRuns: 1, settle: true},
		{name: "probe-allfail-1run", noise: allFail, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-allfail-3runs", noise: allFail, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-nearpass1000-1run", noise: nearPass, change: change{"break", 0.025}, baseRuns: 3, candRuns: 1, paired: true},
		{name: "probe-nearpass200-1run", noise: nearPass200, change: change{"break", 0.04}, baseRuns: 3, candRuns: 1, paired: true},
		{name: "probe-nearpass200-1run-settle", noise: nearPass200, change: change{"break", 0.04}, baseRuns: 3, candRuns: 1, settle: true, paired: true},
		{name: "probe-nearpass200-3runs", noise: nearPass200, change: change{"break", 0.04}, baseRuns: 3, candRuns: 3, paired: true},
		{name: "probe-shift1000-1run", noise: shift1000, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-shift1000-3runs", noise: shift1000, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-shift50-1run", noise: shift50, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-shift50-3runs", noise: shift50, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-badday3-1run", noise: bad3, change: none, baseRuns: 3, candRuns: 1},
		{name: "probe-badday3-3runs", noise: bad3, change: none, baseRuns: 3, candRuns: 3},
		{name: "probe-modela-break4-settle", noise: modelA, change: change{"break", 0.04}, baseRuns: 3, candRuns: 1, settle: true, paired: true},
		{name: "hist-runshift-3runs", noise: shift, change: none, baseRuns: 3, candRuns: 3, history: historyReleases},
		{name: "hist-outage-3runs", noise: outage, change: none, baseRuns: 3, candRuns: 3, history: historyReleases},
		{name: "hist-flaky4-3runs", noise: base, change: change{"flaky", 0.04}, baseRuns: 3, candRuns: 3, paired: true, history: historyReleases},
	}
}

// pick returns the cells named in a comma-separated list ("" or "all": every cell).
func pick(all []cell, names string) ([]cell, error) {
	if names == "" || names == "all" {
		return all, nil
	}
	var out []cell
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		found := false
		for _, c := range all {
			if c.name == n {
				out = append(out, c)
				found = true
			}
		}
		if !found {
			var known []string
			for _, c := range all {
				known = append(known, c.name)
			}
			return nil, fmt.Errorf("no cell %q; the cells are %s", n, strings.Join(known, ", "))
		}
	}
	return out, nil
}

// describe says in words what the cell's model and change are.
func (c cell) describe() string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%d items", c.noise.items))
	switch {
	case c.noise.allPass:
		parts = append(parts, "all pass")
	case c.noise.shiftSD > 0 && c.noise.shiftDF > 0:
		parts = append(parts, fmt.Sprintf("run logit shift %.2f × Student's t (%g df)", c.noise.shiftSD, c.noise.shiftDF))
	case c.noise.shiftSD > 0:
		parts = append(parts, fmt.Sprintf("run logit shift sd %.2f", c.noise.shiftSD))
	case c.noise.outageMax > 0:
		parts = append(parts, fmt.Sprintf("run outage U[0,%.2f]", c.noise.outageMax))
	case c.noise.addSD > 0:
		parts = append(parts, fmt.Sprintf("run additive shift sd %.2f", c.noise.addSD))
	case c.noise.badDay > 0:
		parts = append(parts, fmt.Sprintf("bad day p %.2f failing %.2f", c.noise.badDay, c.noise.badFail))
	}
	if c.noise.exact {
		parts = append(parts, "stable items exactly 0 or 1")
	}
	if c.change.shape != "none" {
		parts = append(parts, fmt.Sprintf("%s %.1f pts", c.change.shape, 100*c.change.drop))
	} else {
		parts = append(parts, "no change")
	}
	runs := fmt.Sprintf("%d-run baseline, %d PR run(s)", c.baseRuns, c.candRuns)
	if c.settle {
		runs += " + settle"
	}
	if c.history > 0 {
		runs += fmt.Sprintf(", %d earlier releases in the history", c.history)
	}
	return strings.Join(append(parts, runs), ", ")
}
