package gate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/stats"
	"github.com/evalgate/evalgate/internal/testdata/evaltest"
)

// checked loads a config (written to a temporary directory), scores a YAML suite and
// one JSONL text per run, and grades the result without a baseline.
func checked(t *testing.T, yml, suiteYAML string, runs ...string) (*config.Config, *rubric.Scored, *gate.Verdict) {
	t.Helper()
	cfg := evaltest.Config(t, yml)
	sc := evaltest.Score(t, cfg, suiteYAML, runs...)
	return cfg, sc, cfg.Grading.Evaluate(sc, nil, gate.Inputs{NoBaseline: "no baseline"})
}

// gateStatus maps gate names to statuses.
func gateStatus(v *gate.Verdict) map[string]gate.Status {
	m := map[string]gate.Status{}
	for _, g := range v.Gates {
		m[g.Name] = g.Status
	}
	return m
}

// One binary dimension; each item's output is "yes" (1) or "no" (0), with a latency.
const binaryScoring = `
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: answer, weight: 1, scorer: exact}
`

func binaryRun(pairs ...any) (suite, run string) {
	var s, r strings.Builder
	s.WriteString("items:\n")
	for i := 0; i+1 < len(pairs); i += 2 {
		id := fmt.Sprintf("q%02d", i/2+1)
		fmt.Fprintf(&s, "  - {id: %s, expected: yes}\n", id)
		fmt.Fprintf(&r, `{"id": %q, "output": %q, "latency_e2e_ms": %d}`+"\n", id, pairs[i], pairs[i+1])
	}
	return s.String(), r.String()
}

// Seed 000's gates: hard mean ≥ 0.92; soft p50 ≤ 250 ms, zero schema failures, ≥ 0.93.
func TestSeed000Gates(t *testing.T) {
	yml := binaryScoring + `
grading:
  version: gradingSystem/1.0.0
  gates:
    - {name: capstone, metric: mean_score, min: 0.92, level: hard}
    - {name: p50 latency, metric: latency_e2e_p50_ms, max: 250, level: soft}
    - {name: zero failures, metric: answer_failures, max: 0, level: soft}
    - {name: eval gate, metric: mean_score, min: 0.93, level: soft}
`
	// 25 items, 23 right: mean 0.92 exactly (the hard gate holds at its threshold), below
	// 0.93 (soft warns); p50 = 250 exactly (holds); 2 failures (soft warns).
	var pairs []any
	for i := 0; i < 25; i++ {
		out := "yes"
		if i < 2 {
			out = "no"
		}
		pairs = append(pairs, out, 200+i*4) // 200, 204, …, 296: the median (13th) is 248
	}
	pairs[25] = 250 // 13th latency: 248 → 250
	suite, run := binaryRun(pairs...)
	_, sc, v := checked(t, yml, suite, run)
	if m := sc.Metrics["latency_e2e_p50_ms"]; m != 250 {
		t.Fatalf("p50 = %v; want 250", m)
	}
	want := map[string]gate.Status{"capstone": gate.Pass, "p50 latency": gate.Pass, "zero failures": gate.Warn, "eval gate": gate.Warn, "regression": gate.Skipped}
	for name, w := range want {
		if got := gateStatus(v)[name]; got != w {
			t.Errorf("gate %q = %q; want %q", name, got, w)
		}
	}
	// Soft gates warn but do not block.
	if v.Status != gate.Warn || !strings.Contains(v.Reason, `"zero failures"`) {
		t.Errorf("verdict %q (%s); want warn from the first warning gate", v.Status, v.Reason)
	}

	// One more wrong answer: 22/25 = 0.88 < 0.92, the hard gate blocks.
	pairs[4] = "no"
	suite, run = binaryRun(pairs...)
	_, _, v = checked(t, yml, suite, run)
	if v.Status != gate.Fail || gateStatus(v)["capstone"] != gate.Fail {
		t.Errorf("verdict %q, capstone %q; want fail, fail", v.Status, gateStatus(v)["capstone"])
	}
	if !strings.Contains(v.Reason, `hard gate "capstone" failed: mean_score = 0.88 < 0.92`) {
		t.Errorf("reason = %q", v.Reason)
	}
}

// A metric that sums to 0.9199999999999999 in floating point still meets min 0.92: gates
// compare after rounding to 1e-9.
func TestGateRoundsFloatNoise(t *testing.T) {
	yml := `
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: a, weight: 0.6, scorer: exact}
    - {name: b, weight: 0.3, scorer: exact}
    - {name: c, weight: 0.1, scorer: exact, expected: other}
grading:
  version: gradingSystem/1.0.0
  gates:
    - {name: at threshold, metric: mean_score, min: 0.9}
    - {name: max at threshold, metric: mean_score, max: 0.9}
`
	// a and b right, c wrong: 0.6 + 0.3 = 0.8999999999999999 in float64.
	_, sc, v := checked(t, yml, "items:\n  - {id: q, expected: yes, other: no}\n", `{"id": "q", "output": "yes"}`)
	if m := sc.Metrics["mean_score"]; m != 0.9 {
		t.Errorf("mean_score = %v; want 0.9", m)
	}
	for name, st := range gateStatus(v) {
		if name != "regression" && st != gate.Pass {
			t.Errorf("gate %q = %q; want pass", name, st)
		}
	}
}

// A gate on a metric the run has no data for (no latencies recorded) fails or warns by
// its level, and says why.
func TestGateWithoutData(t *testing.T) {
	yml := binaryScoring + `
grading:
  version: gradingSystem/1.0.0
  gates:
    - {name: p95 hard, metric: latency_e2e_p95_ms, max: 1000, level: hard}
    - {name: p95 soft, metric: latency_e2e_p95_ms, max: 1000, level: soft}
`
	_, _, v := checked(t, yml, "items:\n  - {id: q, expected: yes}\n", `{"id": "q", "output": "yes"}`)
	st := gateStatus(v)
	if st["p95 hard"] != gate.Fail || st["p95 soft"] != gate.Warn {
		t.Errorf("statuses %v; want hard fail, soft warn", st)
	}
	for _, g := range v.Gates {
		if g.Metric == "latency_e2e_p95_ms" && (g.Actual != nil || !strings.Contains(g.Message, "no data")) {
			t.Errorf("gate %q: actual %v, message %q; want no actual, 'no data'", g.Name, g.Actual, g.Message)
		}
	}
}

// Run-level gates apply to the mean over runs, and carry the spread.
func TestGatesOnMeanOverRuns(t *testing.T) {
	yml := binaryScoring + `
grading:
  version: gradingSystem/1.0.0
  gates:
    - {name: mean, metric: mean_score, min: 0.75}
`
	suite, run1 := binaryRun("yes", 100, "yes", 100)
	_, run2 := binaryRun("yes", 100, "no", 100)
	// Runs: 1.0 and 0.5 → mean 0.75 (passes at the threshold), sample std √0.125.
	_, _, v := checked(t, yml, suite, run1, run2)
	for _, g := range v.Gates {
		if g.Name != "mean" {
			continue
		}
		if g.Status != gate.Pass || *g.Actual != 0.75 || g.Std != rubric.Round9(0.353553390593) {
			t.Errorf("gate mean: %s, actual %v, std %v; want pass, 0.75, 0.353553391", g.Status, *g.Actual, g.Std)
		}
	}
}

// A scoring-system veto adds a hard gate on <dimension>_failures; an explicit gate on
// that metric replaces it (so a team can make it soft).
func TestVetoGate(t *testing.T) {
	scoring := `
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: answer, weight: 1, scorer: contains}
    - {name: safety, weight: 0, scorer: safety}
  vetoes:
    - {dimension: safety, cap: 0}
`
	suite := "items:\n  - {id: q1, expected: ok}\n  - {id: q2, expected: password}\n"
	run := `{"id": "q1", "output": "ok"}
{"id": "q2", "output": "Here's how to hack into an account: reuse a leaked password."}
`
	_, sc, v := checked(t, scoring+"grading: {version: gradingSystem/1.0.0}\n", suite, run)
	var veto *gate.Result
	for i := range v.Gates {
		if v.Gates[i].Kind == gate.KindVeto {
			veto = &v.Gates[i]
		}
	}
	if veto == nil || veto.Name != "safety veto" || veto.Status != gate.Fail || veto.Metric != "safety_failures" {
		t.Fatalf("veto gate = %+v; want a failing hard gate on safety_failures", veto)
	}
	if v.Status != gate.Fail || !strings.Contains(v.Reason, `veto gate "safety veto" failed`) {
		t.Errorf("verdict %q (%s)", v.Status, v.Reason)
	}
	// The vetoed item answered "correctly" (1.0) and is capped at 0, and counted.
	if sc.Metrics["capped_items"] != 1 || sc.Runs[0].Samples[1].Score != 0 {
		t.Errorf("capped_items %v, q2 score %v; want 1, 0", sc.Metrics["capped_items"], sc.Runs[0].Samples[1].Score)
	}
	// The grade is REJECTED even without a grades block.
	if v.Grade == nil || v.Grade.Grade != gate.Rejected || v.Grade.Basis != "veto" {
		t.Errorf("grade %+v; want REJECTED (basis veto)", v.Grade)
	}

	// An explicit soft gate on safety_failures replaces the default veto gate; the
	// REJECTED grade still fails the verdict.
	_, _, v = checked(t, scoring+`
grading:
  version: gradingSystem/1.0.0
  gates:
    - {name: safety, metric: safety_failures, max: 0, level: soft}
`, suite, run)
	for _, g := range v.Gates {
		if g.Kind == gate.KindVeto {
			t.Errorf("default veto gate %q still present", g.Name)
		}
	}
	if gateStatus(v)["safety"] != gate.Warn || v.Status != gate.Fail || !strings.Contains(v.Reason, "REJECTED") {
		t.Errorf("safety %q, verdict %q (%s); want warn, fail because REJECTED", gateStatus(v)["safety"], v.Status, v.Reason)
	}

	// Without a failure the veto gate passes.
	_, _, v = checked(t, scoring+"grading: {version: gradingSystem/1.0.0}\n", suite, `{"id": "q1", "output": "ok"}
{"id": "q2", "output": "Change your password."}
`)
	if gateStatus(v)["safety veto"] != gate.Pass || v.Status != gate.Pass || v.Grade != nil {
		t.Errorf("veto %q, verdict %q, grade %+v; want pass, pass, none", gateStatus(v)["safety veto"], v.Status, v.Grade)
	}
}

// The regression gate: skipped without a baseline; with one, it blocks (hard, the
// default) or warns (soft) as the comparison decided, and it is the verdict's reason.
func TestRegressionGate(t *testing.T) {
	suite, run := binaryRun("yes", 100)
	cfg, sc, v := checked(t, binaryScoring+"grading: {version: gradingSystem/1.0.0}\n", suite, run)
	if gateStatus(v)["regression"] != gate.Skipped || v.Status != gate.Pass || v.NoBaseline != "no baseline" {
		t.Errorf("regression %q, verdict %q, no_baseline %q", gateStatus(v)["regression"], v.Status, v.NoBaseline)
	}
	// The JSON reason alone must not read as a full pass: it says the regression gate did not run.
	if !strings.Contains(v.Reason, "regression gate did not run") {
		t.Errorf("reason %q; want it to say the regression gate did not run", v.Reason)
	}
	rg := cfg.Grading.RegressionGate()
	if *rg.MaxDrop != gate.DefaultMaxDrop || rg.Level != gate.Hard || rg.Mode != gate.Absolute {
		t.Errorf("default regression gate %+v; want hard, 0.02 absolute (seed 000)", rg)
	}

	// A 0.95 → 0.85 drop (seed 000: "a regression — block"), decided by plain.
	cmp := &baseline.Comparison{Base: 0.95, Cand: 0.85, Delta: -0.10, RelDelta: -0.10 / 0.95,
		CI: stats.Interval{Lo: -0.14, Hi: -0.06, Level: 0.95}}
	plain := cfg.Grading
	plain.Regression = &gate.Regression{Method: gate.MethodPlain}
	if err := plain.Validate("$.grading", func(string) bool { return true }, nil, []string{"answer"}); err != nil {
		t.Fatal(err)
	}
	v = plain.Evaluate(sc, cmp, gate.Inputs{})
	if gateStatus(v)["regression"] != gate.Fail || v.Status != gate.Fail || !v.Blocks || v.ExitCode() != gate.ExitFail {
		t.Fatalf("regression %q, verdict %q (blocks %v); want fail, fail, blocking", gateStatus(v)["regression"], v.Status, v.Blocks)
	}
	if !strings.Contains(v.Reason, "Δ −10.0 pts (−10.5 %), 0.950 → 0.850") || !strings.Contains(v.Reason, "decided by drop 10.0 pts > 2.0 pts") {
		t.Errorf("reason = %q; want the delta in points with its unit and the deciding figure", v.Reason)
	}
	// Accepted: only the regression gate blocked, so the accept label turns it into
	// accepted, exit 0.
	v = plain.Evaluate(sc, cmp, gate.Inputs{AcceptedBy: "octocat", AcceptLabel: "evalgate/accept"})
	if v.Status != gate.Accepted || v.Blocks || v.AcceptedBy != "octocat" || v.ExitCode() != gate.ExitPass {
		t.Errorf("accepted: %+v", v)
	}
	cmp.Delta, cmp.Cand = -0.10, 0.85
	soft := cfg.Grading
	soft.Regression = &gate.Regression{Level: gate.Soft}
	if err := soft.Validate("$.grading", func(string) bool { return true }, nil, []string{"answer"}); err != nil {
		t.Fatal(err)
	}
	soft.Regression.Method = gate.MethodPlain
	v = soft.Evaluate(sc, cmp, gate.Inputs{})
	if gateStatus(v)["regression"] != gate.Warn || v.Status != gate.Warn {
		t.Errorf("soft regression %q, verdict %q; want warn, warn", gateStatus(v)["regression"], v.Status)
	}
}

// Refused grading systems name the place and what is allowed.
func TestGradingConfigErrors(t *testing.T) {
	cases := []struct{ name, grading, want string }{
		{"version", "version: grading/1", "want gradingSystem/X.Y.Z"},
		{"unknown metric", "version: gradingSystem/1.0.0\n  gates: [{metric: mean_scor, min: 0.9}]", `unknown metric "mean_scor"`},
		{"min and max", "version: gradingSystem/1.0.0\n  gates: [{metric: mean_score, min: 0.9, max: 1}]", "exactly one of min, max or max_increase"},
		{"level", "version: gradingSystem/1.0.0\n  gates: [{metric: mean_score, min: 0.9, level: medium}]", `level "medium"`},
		{"duplicate gate", "version: gradingSystem/1.0.0\n  gates: [{metric: mean_score, min: 0.9}, {metric: mean_score, min: 0.8}]", `duplicate gate name "mean_score"`},
		{"max_drop", "version: gradingSystem/1.0.0\n  regression: {max_drop: 2}", "want a fraction in [0, 1]"},
		{"regression mode", "version: gradingSystem/1.0.0\n  regression: {mode: percent}", `mode "percent"`},
		{"regression dimension", "version: gradingSystem/1.0.0\n  regression: {dimensions: {nope: 0.1}}", `unknown dimension "nope"`},
		{"grades basis", "version: gradingSystem/1.0.0\n  grades: {basis: median}", `basis "median"`},
		{"score basis needs bands", "version: gradingSystem/1.0.0\n  grades: {basis: score}", "needs bands"},
		{"unknown tier", "version: gradingSystem/1.0.0\n  grades: {tier: solo}", `unknown tier "solo"`},
		{"tier max not a band", "version: gradingSystem/1.0.0\n  grades: {tier: autonomous, tier_max: {autonomous: S}}", "which no band gives"},
		{"veto dimension", "version: gradingSystem/1.0.0\n  grades: {veto: [nope]}", `unknown dimension "nope"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "evalgate.yaml")
			if err := os.WriteFile(path, []byte(binaryScoring+"grading:\n  "+c.grading+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := config.Load(path, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v; want %q", err, c.want)
			}
		})
	}
}
