package gate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The regression gate in force without a `regression:` block is the one validation
// gives an empty block: the defaults are stated once (fillDefaults).
func TestDefaultRegressionIsTheValidatedEmptyBlock(t *testing.T) {
	t.Parallel()
	var validated Regression
	if err := validated.validate("grading.regression", nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&validated, (&System{}).RegressionGate()); diff != "" {
		t.Errorf("RegressionGate without a block differs from a validated empty block (-validated +gate):\n%s", diff)
	}
	// seed 000's eval gate: hard, a drop of at most 2 absolute points, the evidence
	// method, inconclusive warns.
	d := DefaultRegression()
	if *d.MaxDrop != 0.02 || d.Mode != Absolute || d.Level != Hard || d.Method != MethodEvidence || d.Inconclusive != InconclusiveWarn {
		t.Errorf("DefaultRegression = %+v", d)
	}
	// require_significance picks the significance method when none is named.
	sig := Regression{RequireSignificance: true}
	if err := sig.validate("grading.regression", nil); err != nil || sig.Method != MethodSignificance {
		t.Errorf("require_significance: method %q, err %v", sig.Method, err)
	}
}
