package diagnose

import (
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/stats"
)

// The jump rule's "beyond the suite's noise" reads the same 95 % interval the verdict
// prints. An estimated rise of 3.3 pts (Drop −0.033) with SE 0.0136 on 4 degrees of
// freedom (run-level noise from 3 runs): the verdict's half-width is t(0.975, 4)·SE =
// 2.776 × 0.0136 = 3.78 pts, so the interval is [−0.5, +7.1] pts and holds 0: not
// beyond the noise. The normal's 1.96 × 0.0136 = 2.67 pts would give [+0.6, +6.0] and
// call it a real improvement while the statistics beside it say it is not.
func TestRegressionNoiseReadsTheVerdictsInterval(t *testing.T) {
	c := &baseline.Comparison{Evidence: stats.EvidenceResult{Items: 40, Drop: -0.033, SE: 0.0136, DF: 4}}
	if (RegressionNoise{}).BeyondNoise(c) {
		t.Error("BeyondNoise = true; want false: the verdict's interval [−0.5, +7.1] pts holds 0")
	}
	// Without run-level degrees of freedom the interval is ±1.96·SE: [+0.6, +6.0].
	c.Evidence.DF = 0
	if !(RegressionNoise{}).BeyondNoise(c) {
		t.Error("DF 0: BeyondNoise = false; want true: [+0.6, +6.0] pts lies above 0")
	}
}
