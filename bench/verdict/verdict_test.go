package main

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
)

// The test binary plays both programs the harness runs: evalgate itself (the same
// code cmd/evalgate runs, so no build is needed) and the harness's rerun-item mode.
func TestMain(m *testing.M) {
	if len(os.Args) >= 2 {
		switch os.Args[1] {
		case "as-evalgate":
			os.Exit(cli.New().Main(append([]string{"evalgate"}, os.Args[2:]...)))
		case "rerun-item":
			if err := rerunItem(os.Args[2]); err != nil {
				os.Stderr.WriteString(err.Error() + "\n")
				os.Exit(2)
			}
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

func testHarness(t *testing.T) harness {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return harness{bin: []string{self, "as-evalgate"}, rerun: []string{self, "rerun-item"}, maxDrop: 0.02, keep: true}
}

// The plumbing, on deterministic suites (every item passes with probability exactly 1
// or 0, so every run is the same): a clear drop blocks and its unchanged twin passes.
// 40 items all pass; breaking 4 of them is a 10-pt drop (4/40), the estimate and its
// interval must hold it, and the twin's runs are identical to the baseline's. The same
// holds with graded scores (a recorded 0–2 judge score: 2 for every item at p = 1, 0
// for a broken one).
func TestClearDropBlocksIdenticalPasses(t *testing.T) {
	for _, graded := range []bool{false, true} {
		t.Run(map[bool]string{false: "pass-fail", true: "graded"}[graded], func(t *testing.T) {
			clearDropBlocks(t, graded)
		})
	}
}

func clearDropBlocks(t *testing.T, graded bool) {
	h := testHarness(t)
	c := cell{name: "plumbing", noise: noise{items: 40, allPass: true, graded: graded}, change: change{"break", 0.10},
		baseRuns: 3, candRuns: 1, paired: true}
	dir := filepath.Join(t.TempDir(), "trial")
	out, err := h.trial(context.Background(), c, 1, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !out.alt.blocked || out.alt.outcome != "fail" {
		t.Errorf("a 10-pt drop of stable items: blocked %v, outcome %s; want blocked (fail)", out.alt.blocked, out.alt.outcome)
	}
	if out.alt.truth < 0.1-1e-9 || out.alt.truth > 0.1+1e-9 {
		t.Errorf("true drop %v; want 0.10 (4 of 40 items broken)", out.alt.truth)
	}
	if out.null.blocked || out.null.outcome != "pass" {
		t.Errorf("identical runs: blocked %v, outcome %s; want pass", out.null.blocked, out.null.outcome)
	}
	if out.null.truth != 0 {
		t.Errorf("unchanged twin's true drop %v; want 0", out.null.truth)
	}
	for _, d := range out.devs {
		if d != 0 {
			t.Errorf("a deterministic run's mean is %v off its expectation; want 0", d)
		}
	}
	if graded {
		b, err := os.ReadFile(filepath.Join(dir, "base1.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"scores": {"quality": 2}`) {
			t.Errorf("graded baseline run %.80q…; want recorded quality scores of 2", b)
		}
	}
}

// Settle goes through the harness's rerun-item mode: 8 items all pass, one breaks, one
// pull-request run is inconclusive, and the re-runs (the broken item fails every time)
// make it a block.
func TestSettleRerunsThroughTheModel(t *testing.T) {
	h := testHarness(t)
	c := cell{name: "settle", noise: noise{items: 8, allPass: true}, change: change{"break", 0.125},
		baseRuns: 3, candRuns: 1, settle: true}
	dir := filepath.Join(t.TempDir(), "trial")
	out, err := h.trial(context.Background(), c, 1, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !out.alt.settled || out.alt.rounds < 1 || out.alt.itemRuns < 1 {
		t.Fatalf("settle ran %v, %d round(s), %d item-run(s); want at least one round", out.alt.settled, out.alt.rounds, out.alt.itemRuns)
	}
	if !out.alt.blocked {
		t.Errorf("after settling: blocked %v, outcome %s; want a block", out.alt.blocked, out.alt.outcome)
	}
	counters, _ := filepath.Glob(filepath.Join(dir, "pr-rerun", "n-*"))
	if len(counters) == 0 {
		t.Error("no item was re-run through rerun-item")
	}
}

// A history cell makes its earlier releases through evalgate baseline, each its own
// commit, and check pools them: 2 releases and the baseline's own record are 3 lines
// of the history, and the run-level noise counts 2 degrees of freedom from the
// baseline's three runs and 2 from each release's three (the one PR run adds none):
// 2 + 2·2 = 6, from 3 groups.
func TestHistoryReleasesReachCheck(t *testing.T) {
	h := testHarness(t)
	c := cell{name: "history", noise: noise{items: 40, allPass: true}, change: change{"break", 0.10},
		baseRuns: 3, candRuns: 1, history: 2}
	dir := filepath.Join(t.TempDir(), "trial")
	if _, err := h.trial(context.Background(), c, 1, dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "baseline.history.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 3 {
		t.Errorf("%d history records; want 3 (2 releases and the baseline)", n)
	}
	rep, err := os.ReadFile(filepath.Join(dir, "pr-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Comparison struct {
			Evidence struct {
				RunNoise struct {
					DF     int `json:"df"`
					Groups int `json:"groups"`
				} `json:"run_noise"`
			} `json:"evidence"`
		} `json:"comparison"`
	}
	if err := json.Unmarshal(rep, &r); err != nil {
		t.Fatal(err)
	}
	if rn := r.Comparison.Evidence.RunNoise; rn.DF != 6 || rn.Groups != 3 {
		t.Errorf("run-level noise: df %d from %d groups; want 6 from 3", rn.DF, rn.Groups)
	}
}

// plainAt moves plain's threshold to block the given share of the twins: with observed
// drops 0, 1, 2, 3 and 4 pts among five twins, blocking none puts it at the largest
// (4 pts: a drop must exceed it), blocking one of five (20 %) at 3 pts; the changed
// pull requests' drops 2.5, 3.5 and 4.5 pts are then caught 1 and 2 times.
func TestPlainAt(t *testing.T) {
	arms := func(pts ...float64) []*arm {
		var out []*arm
		for _, p := range pts {
			out = append(out, &arm{observed: p / 100})
		}
		return out
	}
	null, alt := arms(2, 0, 4, 1, 3), arms(2.5, 3.5, 4.5)
	for _, tc := range []struct {
		fb     float64
		thr    float64
		caught int
	}{{0, 0.04, 1}, {0.2, 0.03, 2}} {
		thr, caught := plainAt(alt, null, tc.fb)
		if math.Abs(thr-tc.thr) > 1e-12 || caught != tc.caught {
			t.Errorf("fb %.1f: threshold %v, caught %d; want %v and %d", tc.fb, thr, caught, tc.thr, tc.caught)
		}
	}
}

// The probe models' expected means, by hand. A bad day (probability 0.25) fails every
// item with probability 0.08, so an all-pass suite's expected mean is 1 − 0.25·0.08 =
// 0.98. An additive shift is symmetric: items at p = 0.5 stay at 0.5 on average (a
// shift of sd 0.03 never reaches the clip at 0 or 1), and items at p = 1 lose the mean
// of the negative half of δ, E[max(0, −δ)] = sd/√(2π) = 0.03·0.39894 ≈ 0.011968 (on 200
// quantiles, within 1e-4).
func TestProbeModelsExpectedMean(t *testing.T) {
	bad := noise{badDay: 0.25, badFail: 0.08}
	if got := bad.expectedMean([]float64{1, 1, 1}); math.Abs(got-0.98) > 1e-12 {
		t.Errorf("bad day: expected mean %v; want 0.98", got)
	}
	add := noise{addSD: 0.03}
	if got := add.expectedMean([]float64{0.5, 0.5}); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("additive at 0.5: %v; want 0.5", got)
	}
	want := 1 - 0.03/math.Sqrt(2*math.Pi)
	if got := add.expectedMean([]float64{1}); math.Abs(got-want) > 1e-4 {
		t.Errorf("additive at 1: %v; want %v", got, want)
	}
	// A bad day's runs: on a bad day (forced by badDay 1) the drawn effect fails items.
	e := noise{badDay: 1, badFail: 0.08}.runEffect(rand.New(rand.NewPCG(1, 2)))
	if e.fail != 0.08 || e.prob(1) != 0.92 {
		t.Errorf("bad day effect %+v, prob(1) %v; want fail 0.08, 0.92", e, e.prob(1))
	}
}

// The heavy-tailed and deterministic probes. A logit shift of any symmetric law leaves
// items at p = 0.5 at 0.5 on average, and cannot move items at exactly 0 or 1. The
// t-scaled draws' variance is ν/(ν − 2) = 3 for ν = 3: over 20,000 draws the sample
// variance lands within 3 ± 1.5 (t₃'s fourth moment is infinite, so the tolerance is
// wide; a normal draw (variance 1) or a missing scale would fall outside it).
// The exact suite puts 30 % of 200 items (60) between 0.05 and 0.95 and the other 140
// at exactly 0 or 1.
func TestHeavyAndExactProbes(t *testing.T) {
	heavy := noise{shiftSD: 0.35, shiftDF: 3}
	if got := heavy.expectedMean([]float64{0.5, 0, 1}); math.Abs(got-0.5) > 1e-9 {
		t.Errorf("t shift at 0.5, 0, 1: expected mean %v; want 0.5", got)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var s2 float64
	const n = 20000
	for range n {
		z := rng.NormFloat64() * studentScale(3, rng)
		s2 += z * z
	}
	if v := s2 / n; v < 1.5 || v > 4.5 {
		t.Errorf("t₃ draws' variance %v; want about 3", v)
	}
	exact := noise{items: 200, exact: true, flaky: 0.3, flakyRange: [2]float64{0.05, 0.95}}
	p, k := exact.suiteOf(rand.New(rand.NewPCG(5, 6)))
	var nFlaky, nExact int
	for i := range p {
		switch {
		case k[i] == flaky && p[i] >= 0.05 && p[i] <= 0.95:
			nFlaky++
		case k[i] != flaky && (p[i] == 0 || p[i] == 1):
			nExact++
		}
	}
	if nFlaky != 60 || nExact != 140 {
		t.Errorf("exact suite: %d flaky in range, %d exact; want 60 and 140", nFlaky, nExact)
	}
}

// The suites at the ends of the scale: an all-fail suite has every item at exactly 0;
// a near-pass suite has every item a stable pass in [0.97, 1] (p = 1 − 0.03·u³) and no
// flaky or failing item; model A has 15 % of 200 items (30) at exactly 0.5, 10 % (20)
// at exactly 0 and the other 150 at exactly 1.
func TestEndsOfTheScale(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	p, k := noise{items: 200, allFail: true}.suiteOf(rng)
	for i := range p {
		if p[i] != 0 || k[i] != stableFail {
			t.Fatalf("all-fail item %d: p %v kind %v", i, p[i], k[i])
		}
	}
	p, k = noise{items: 200, nearPass: true}.suiteOf(rng)
	for i := range p {
		if p[i] < 0.97 || p[i] > 1 || k[i] != stablePass {
			t.Fatalf("near-pass item %d: p %v kind %v", i, p[i], k[i])
		}
	}
	p, _ = noise{items: 200, exact: true, flaky: 0.15, flakyAt: 0.5}.suiteOf(rng)
	count := map[float64]int{}
	for _, v := range p {
		count[v]++
	}
	if count[0.5] != 30 || count[0] != 20 || count[1] != 150 {
		t.Errorf("model A: %v; want 30 at 0.5, 20 at 0, 150 at 1", count)
	}
}
