package gate_test

import (
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/testdata/evaltest"
)

// A missing baseline skips the regression gate; required (in the config or by the
// action's input) it fails it, except on the pull request that adds evalgate. A
// baseline that is simply not configured is never a failure.
func TestRequireBaseline(t *testing.T) {
	t.Parallel()
	suite, run := binaryRun("yes", 100, "yes", 100)
	loose := evaltest.Config(t, binaryScoring+"grading:\n  version: gradingSystem/1.0.0\n")
	strict := evaltest.Config(t, binaryScoring+"grading:\n  version: gradingSystem/1.0.0\n  regression: {require_baseline: true}\n")
	sc := evaltest.Score(t, loose, suite, run)
	missing := gate.Inputs{NoBaseline: "baseline b.jsn does not exist", MissingBaseline: "b.jsn"}
	tests := []struct {
		name   string
		system *gate.System
		in     gate.Inputs
		want   gate.Status
	}{
		{"missing, not required: skipped, the verdict passes", &loose.Grading, missing, gate.Pass},
		{"missing, required by the config", &strict.Grading, missing, gate.Fail},
		{"missing, required by the action's input", &loose.Grading, gate.Inputs{NoBaseline: "x", MissingBaseline: "b.jsn", RequireBaseline: true}, gate.Fail},
		{"missing and required, on the pull request that adds evalgate", &strict.Grading, gate.Inputs{NoBaseline: "x", MissingBaseline: "b.jsn", FirstAdoption: true}, gate.Pass},
		{"not configured, required", &strict.Grading, gate.Inputs{NoBaseline: "no baseline configured"}, gate.Pass},
	}
	for _, tt := range tests {
		v := tt.system.Evaluate(sc, nil, tt.in)
		if v.Status != tt.want || v.Blocks != (tt.want == gate.Fail) {
			t.Errorf("%s: status %s, blocks %v; want %s", tt.name, v.Status, v.Blocks, tt.want)
		}
		if v.ExitCode() != map[bool]int{true: gate.ExitFail, false: gate.ExitPass}[tt.want == gate.Fail] {
			t.Errorf("%s: exit code %d", tt.name, v.ExitCode())
		}
		if tt.in.MissingBaseline != "" && v.MissingBaseline != tt.in.MissingBaseline {
			t.Errorf("%s: the verdict does not carry the missing baseline", tt.name)
		}
	}
}
