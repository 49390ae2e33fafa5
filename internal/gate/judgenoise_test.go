package gate_test

import (
	"math"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/stats"
)

func ptr(x float64) *float64 { return &x }

// judgedDrop is a 10-point drop of the score over 40 items, 95 % interval −13 to −7
// points, carried by dimensions given as name → Δ of its normalized mean.
func judgedDrop(rel *reliability.Measurement, deltas map[string]float64) *baseline.Comparison {
	cmp := &baseline.Comparison{Base: 0.80, Cand: 0.70, Delta: -0.10, RelDelta: -0.125, Compared: 40,
		CI: stats.Interval{Lo: -0.13, Hi: -0.07, Level: 0.95}, JudgeReliability: rel}
	for name, d := range deltas {
		cmp.Dimensions = append(cmp.Dimensions, baseline.DimensionDelta{Name: name, Delta: d})
	}
	return cmp
}

func significance(t *testing.T) *gate.Regression {
	t.Helper()
	r := &gate.Regression{Method: gate.MethodSignificance}
	g := gate.System{Version: "gradingSystem/1.0.0", Regression: r}
	if err := g.Validate("$.grading", func(string) bool { return true }, nil, []string{"accuracy", "latency"}); err != nil {
		t.Fatal(err)
	}
	return r
}

// A judged dimension whose judge agrees with itself at α 0.30 (< 0.667) carries the
// whole drop (weight 0.5 × −20 pts = −10 pts): it cannot block by itself, the decision
// is inconclusive and says why. The same drop with a reliable judge (α 0.90) blocks.
func TestAnUnreliableJudgeCannotBlockByItself(t *testing.T) {
	rel := func(alpha float64) *reliability.Measurement {
		return &reliability.Measurement{Sample: 40, Repeats: 3, Dimensions: []reliability.Dimension{
			{Name: "accuracy", Weight: 0.5, Alpha: ptr(alpha), Variance: 0.02, Level: stats.LevelInterval},
		}}
	}
	r := significance(t)
	d := r.Decide(judgedDrop(rel(0.30), map[string]float64{"accuracy": -0.20}))
	if d.Outcome != gate.Inconclusive || d.Judge == nil || !strings.Contains(d.DecidedBy, "accuracy (judge self-agreement α 0.30 < floor 0.667)") ||
		!strings.Contains(d.DecidedBy, "cannot block by itself") {
		t.Fatalf("unreliable judge: outcome %s, decided by %q", d.Outcome, d.DecidedBy)
	}
	// Judge noise: SE = √(2·0.5²·0.02/40) = √0.00025 = 0.01581. The interval's own SE
	// is 0.03/1.96 = 0.01531; widened √(0.01531² + 0.01581²) = 0.02201, so the
	// interval of the drop is 0.10 ± 1.96·0.02201 = 5.69 to 14.31 pts.
	if math.Abs(d.Judge.SE-math.Sqrt(0.00025)) > 1e-12 {
		t.Errorf("judge SE %v; want √0.00025", d.Judge.SE)
	}
	se := 0.03 / 1.959963984540054
	wide := math.Sqrt(se*se + 0.00025)
	if math.Abs(d.Interval.Lo-(0.10-1.959963984540054*wide)) > 1e-9 || math.Abs(d.Interval.Hi-(0.10+1.959963984540054*wide)) > 1e-9 {
		t.Errorf("interval %v; want 0.10 ± %.5f", d.Interval, 1.959963984540054*wide)
	}

	d = r.Decide(judgedDrop(rel(0.90), map[string]float64{"accuracy": -0.20}))
	if d.Outcome != gate.Fail || d.Judge == nil || len(d.Judge.Unreliable) != 0 {
		t.Fatalf("reliable judge: outcome %s (%q); want fail", d.Outcome, d.DecidedBy)
	}

	// The unreliable dimension carries 5 of the 10 points; the rest (a deterministic
	// dimension's) is still over max_drop 2 pts: it blocks.
	d = r.Decide(judgedDrop(rel(0.30), map[string]float64{"accuracy": -0.10, "latency": -0.10}))
	if d.Outcome != gate.Fail {
		t.Fatalf("drop carried by a reliable dimension too: outcome %s (%q); want fail", d.Outcome, d.DecidedBy)
	}

	// A configured floor of 0.2 trusts the α 0.30 judge.
	r.JudgeAlphaFloor = ptr(0.2)
	if d = r.Decide(judgedDrop(rel(0.30), map[string]float64{"accuracy": -0.20})); d.Outcome != gate.Fail {
		t.Errorf("floor 0.2: outcome %s; want fail", d.Outcome)
	}
}
