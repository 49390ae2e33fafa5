package gate_test

import (
	"math"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/stats"
)

// TestLatencyGateOnEstimate: latency gates decided on a sketched percentile say so,
// and say when the threshold lies within the estimate's error bound. The switch to the
// sketch is lowered to 5 latencies so that ten items reach it.
//
// Nine items at 200 ms and one at 1000 ms. Exactly, p50 = 200 and p95 = 200 + 0.55 ·
// 800 = 640 (h = 9 · 0.95 = 8.55). Sketched with α = 0.01 (γ = 1.01/0.99, a value v
// read back as γ^⌊ln v/ln γ⌋ · 1.01): 200 → 198.3685 and 1000 → 1002.4280, so p50 ≈
// 198.3685 and p95 ≈ 198.3685 + 0.55 · (1002.4280 − 198.3685) = 640.6012. The exact
// figure x of an estimate v lies in [v/1.01, v/0.99]: [196.40, 200.37] for p50,
// [634.26, 647.07] for p95.
func TestLatencyGateOnEstimate(t *testing.T) {
	yml := binaryScoring + `
grading:
  version: gradingSystem/1.0.0
  regression: {disabled: true}
  gates:
    - {name: p50 tight, metric: latency_e2e_p50_ms, max: 199, level: soft}
    - {name: p95 far, metric: latency_e2e_p95_ms, max: 600, level: soft}
    - {name: p95 near, metric: latency_e2e_p95_ms, max: 645, level: hard}
    - {name: p95 easy, metric: latency_e2e_p95_ms, max: 700, level: hard}
`
	var pairs []any
	for i := range 10 {
		ms := 200
		if i == 6 {
			ms = 1000
		}
		pairs = append(pairs, "yes", ms)
	}
	suite, run := binaryRun(pairs...)

	// Exact (10 latencies, under the real switch): p50 200 fails "≤ 199"; no estimate.
	_, _, v := checked(t, yml, suite, run)
	exact := byName(v)
	if g := exact["p50 tight"]; g.Status != gate.Warn || *g.Actual != 200 || g.Estimated != nil || strings.Contains(g.Message, "estimated") {
		t.Errorf("exact p50 gate: %s %v %q; want warn at 200 ms, not estimated", g.Status, *g.Actual, g.Message)
	}
	if g := exact["p95 near"]; g.Status != gate.Pass || math.Abs(*g.Actual-640) > 1e-9 {
		t.Errorf("exact p95 gate: %s %v; want pass at 640 ms", g.Status, *g.Actual)
	}

	old := stats.ExactQuantilesUpTo
	stats.ExactQuantilesUpTo = 5
	defer func() { stats.ExactQuantilesUpTo = old }()
	_, _, v = checked(t, yml, suite, run)
	est := byName(v)
	const said = "estimated (DDSketch of 10 values, ±1 %)"
	const within = "the threshold is within the error bound, so the exact figure may be on its other side"
	for _, c := range []struct {
		name   string
		status gate.Status
		actual float64
		within bool
	}{
		{"p50 tight", gate.Pass, 198.3685, true}, // 199 ∈ [196.40, 200.37]: passes on the estimate, fails exactly
		{"p95 far", gate.Warn, 640.6012, false},  // 600 < 634.26
		{"p95 near", gate.Pass, 640.6012, true},  // 645 ∈ [634.26, 647.07]
		{"p95 easy", gate.Pass, 640.6012, false}, // 700 > 647.07
	} {
		g := est[c.name]
		if g.Status != c.status || math.Abs(*g.Actual-c.actual) > 5e-4 || g.Estimated == nil || g.Estimated.Values != 10 {
			t.Errorf("%s: %s at %v (estimated %v); want %s at %v, estimated over 10 values", c.name, g.Status, *g.Actual, g.Estimated, c.status, c.actual)
		}
		if !strings.Contains(g.Message, said) || strings.Contains(g.Message, within) != c.within {
			t.Errorf("%s: message %q; want it to say %q, and the threshold within the bound: %v", c.name, g.Message, said, c.within)
		}
	}
}

// byName maps gate names to results.
func byName(v *gate.Verdict) map[string]gate.Result {
	m := map[string]gate.Result{}
	for _, g := range v.Gates {
		m[g.Name] = g
	}
	return m
}
