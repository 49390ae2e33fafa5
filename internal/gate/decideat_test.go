package gate_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/stats"
)

func regression(t *testing.T, method string) *gate.Regression {
	t.Helper()
	r := &gate.Regression{Method: method}
	g := gate.System{Version: "gradingSystem/1.0.0", Regression: r}
	if err := g.Validate("$.grading", func(string) bool { return true }, nil, nil); err != nil {
		t.Fatal(err)
	}
	return r
}

// The significance method's p-value of "no drop" is Φ(mid/se) of the interval of Δ: a
// clear drop gives p near 0 (it printed p = 1 before). Interval of Δ −13 to −7 pts:
// mid −0.10, se 0.03/1.96 = 0.015307, z = −6.533, Φ(−6.533) = 3.2e-11.
func TestSignificancePValueOfAClearDrop(t *testing.T) {
	r := regression(t, gate.MethodSignificance)
	d := r.Decide(&baseline.Comparison{Base: 0.8, Cand: 0.7, Delta: -0.10, Compared: 100,
		CI: stats.Interval{Lo: -0.13, Hi: -0.07, Level: 0.95}})
	if d.PValue == nil || *d.PValue > 1e-10 || *d.PValue <= 0 || d.Outcome != gate.Fail {
		t.Fatalf("clear drop: p %v, outcome %s (%q); want p ≈ 3e-11 and fail", d.PValue, d.Outcome, d.DecidedBy)
	}
	if strings.Contains(d.DecidedBy, "p = 1") {
		t.Errorf("decided by %q prints p = 1 for a clear drop", d.DecidedBy)
	}
	// No change at all (interval −3 to +3 pts around 0): p = Φ(0) = 0.5.
	d = r.Decide(&baseline.Comparison{Base: 0.8, Cand: 0.8, Compared: 100, CI: stats.Interval{Lo: -0.03, Hi: 0.03, Level: 0.95}})
	if math.Abs(*d.PValue-0.5) > 1e-12 {
		t.Errorf("no change: p %v; want 0.5", *d.PValue)
	}
}

// DecideAt runs the tests at another level. Significance, interval of Δ −7 to +1 pts:
// mid −0.03, se 0.04/1.96 = 0.020408, z = −1.470, p = Φ(−1.470) = 0.0708. The drop
// 3 pts is over max_drop 2 pts. At the default level the interval reaches above 0:
// inconclusive. At alpha 0.2 the test is p < 0.1: fail. At alpha 0.1, p < 0.05 does not
// hold: inconclusive.
func TestDecideAtSignificance(t *testing.T) {
	r := regression(t, gate.MethodSignificance)
	cmp := &baseline.Comparison{Base: 0.8, Cand: 0.77, Delta: -0.03, Compared: 100, CI: stats.Interval{Lo: -0.07, Hi: 0.01, Level: 0.95}}
	want := 0.5 * math.Erfc(0.03/(0.04/stats.Z95)/math.Sqrt2)
	for _, c := range []struct {
		alpha float64
		out   gate.Status
	}{{gate.Alpha, gate.Inconclusive}, {0.2, gate.Fail}, {0.1, gate.Inconclusive}} {
		d := r.DecideAt(cmp, c.alpha)
		if d.Outcome != c.out || d.Alpha != c.alpha || math.Abs(*d.PValue-want) > 1e-12 {
			t.Errorf("alpha %v: outcome %s, alpha %v, p %v; want %s, p %v", c.alpha, d.Outcome, d.Alpha, *d.PValue, c.out, want)
		}
	}
	if math.Abs(want-0.0708) > 5e-4 {
		t.Errorf("p %v; the comment says 0.0708", want)
	}
}

// The evidence method rejects when p < alpha: an estimated drop of 5 pts with p = 0.01
// blocks at 5 %, is inconclusive at a look that spends 0.5 %, and says so at that level.
// An alpha outside (0, 1) is the default level.
func TestDecideAtEvidence(t *testing.T) {
	r := regression(t, gate.MethodEvidence)
	cmp := &baseline.Comparison{Base: 0.8, Cand: 0.75, Delta: -0.05, Compared: 100,
		Evidence: stats.EvidenceResult{Items: 100, PredictedMean: 0.8, CandMean: 0.75, Drop: 0.05, SE: 0.02, PValue: 0.01}}
	if d := r.Decide(cmp); d.Outcome != gate.Fail || d.Alpha != 0.05 {
		t.Fatalf("default level: %s at alpha %v; want fail at 0.05", d.Outcome, d.Alpha)
	}
	d := r.DecideAt(cmp, 0.005)
	if d.Outcome != gate.Inconclusive || !strings.Contains(d.DecidedBy, "0.005") {
		t.Fatalf("alpha 0.005: %s (%q); want inconclusive, naming 0.005", d.Outcome, d.DecidedBy)
	}
	if d := r.DecideAt(cmp, 0); d.Alpha != gate.Alpha || d.Outcome != gate.Fail {
		t.Errorf("alpha 0: %s at %v; want fail at the default level", d.Outcome, d.Alpha)
	}
	suite, run := binaryRun("yes", 100)
	cfg, sc, _ := checked(t, binaryScoring+"grading: {version: gradingSystem/1.0.0}\n", suite, run)
	if v := cfg.Grading.Evaluate(sc, cmp, gate.Inputs{Level: 0.005}); v.Regression.Outcome != gate.Inconclusive {
		t.Errorf("Evaluate at Inputs.Level 0.005: %s; want inconclusive", v.Regression.Outcome)
	}
}

// A drop beyond the noise whose size is unsure on the pass side is inconclusive, not a
// pass. Evidence, estimate 1.5 pts ≤ max_drop 2 pts, SE 0.5 pts with no run-level part
// (DF 0): the interval is 1.5 ± 1.96 × 0.5 = 0.52 to 2.48 pts, over 2 pts at its top;
// p = 0.001 < 0.05 rejects "no drop": inconclusive, "a drop that may be over max_drop".
// SE 0.2 pts: 1.5 ± 0.39 = 1.11 to 1.89 pts, under max_drop: pass. p = 0.2 (no test
// rejects) with SE 0.5: pass, as before (the estimate is under max_drop and nothing says
// there is a drop at all).
func TestEvidenceDropMaybeOverMaxDrop(t *testing.T) {
	r := regression(t, gate.MethodEvidence)
	for _, c := range []struct {
		se, p float64
		out   gate.Status
	}{{0.005, 0.001, gate.Inconclusive}, {0.002, 0.001, gate.Pass}, {0.005, 0.2, gate.Pass}} {
		cmp := &baseline.Comparison{Base: 0.8, Cand: 0.785, Delta: -0.015, Compared: 200,
			Evidence: stats.EvidenceResult{Items: 200, Drop: 0.015, SE: c.se, PValue: c.p}}
		d := r.Decide(cmp)
		if d.Outcome != c.out {
			t.Errorf("SE %v, p %v: %s (%q); want %s", c.se, c.p, d.Outcome, d.DecidedBy, c.out)
		}
		if c.out == gate.Inconclusive && (math.Abs(d.Interval.Hi-0.015-stats.Z95*c.se) > 1e-12 || !strings.Contains(d.DecidedBy, "its size unsure: the interval reaches over max_drop")) {
			t.Errorf("interval %v, decided by %q; want the top at 2.48 pts and the reason", d.Interval, d.DecidedBy)
		}
	}
}

// The run-level guard keeps the test from rejecting (p = 0.2) while the items alone
// reject it (PItem = 0.001): a drop of 1.5 pts whose interval 1.5 ± 1.96·0.5 = 0.52 to
// 2.48 pts reaches over max_drop is inconclusive, said to be one a shift of a whole
// run could explain; with PItem = 0.2 too it is a pass.
func TestEvidenceItemLevelDropMaybeOver(t *testing.T) {
	r := regression(t, gate.MethodEvidence)
	for _, c := range []struct {
		pItem float64
		out   gate.Status
	}{{0.001, gate.Inconclusive}, {0.2, gate.Pass}} {
		cmp := &baseline.Comparison{Base: 0.8, Cand: 0.785, Delta: -0.015, Compared: 200,
			Evidence: stats.EvidenceResult{Items: 200, Drop: 0.015, SE: 0.005, PValue: 0.2, PItem: c.pItem}}
		d := r.Decide(cmp)
		if d.Outcome != c.out || d.Rejects {
			t.Errorf("PItem %v: %s, rejects %v (%q); want %s, not rejecting", c.pItem, d.Outcome, d.Rejects, d.DecidedBy, c.out)
		}
		if c.out == gate.Inconclusive && (!d.ItemRejects || !strings.Contains(d.DecidedBy, "a shift shared by a whole run could explain")) {
			t.Errorf("item rejects %v, decided by %q; want the item-level reason", d.ItemRejects, d.DecidedBy)
		}
	}
}

// A pass the items alone put in doubt. Estimate 1.5 pts, SE 0.5 pts: the interval
// 1.5 ± 1.96·0.5 = 0.52 to 2.48 pts reaches over max_drop, and the test (p = 0.3) does
// not reject. With the items' p-value 0.1 (under UnsureP = 0.2) the pass is Unsure and
// names the items that pulled toward a drop for settle to re-run; with 0.3 it is a
// plain pass; with SE 0.2 pts (interval 1.11 to 1.89 pts, under max_drop) too.
func TestEvidenceUnsurePass(t *testing.T) {
	r := regression(t, gate.MethodEvidence)
	for _, c := range []struct {
		se, pItem float64
		unsure    bool
	}{{0.005, 0.1, true}, {0.005, 0.3, false}, {0.002, 0.1, false}} {
		cmp := &baseline.Comparison{Base: 0.8, Cand: 0.785, Delta: -0.015, Compared: 200,
			Evidence:      stats.EvidenceResult{Items: 200, Drop: 0.015, SE: c.se, PValue: 0.3, PItem: c.pItem},
			EvidenceItems: []baseline.EvidenceItem{{ID: "q7", Z: 3.1}, {ID: "q2", Z: 1.2}}}
		d := r.Decide(cmp)
		if d.Outcome != gate.Pass || d.Unsure != c.unsure || len(d.Evidence) != 0 {
			t.Errorf("SE %v, p_item %v: %s, unsure %v, evidence %v; want pass, unsure %v, no evidence", c.se, c.pItem, d.Outcome, d.Unsure, d.Evidence, c.unsure)
		}
		var ids []string
		for _, e := range d.Recheck {
			ids = append(ids, e.ID)
		}
		if want := []string{"q7", "q2"}; c.unsure && !slices.Equal(ids, want) {
			t.Errorf("recheck %v; want %v", ids, want)
		}
	}
}
