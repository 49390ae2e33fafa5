package diagnose

import (
	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/stats"
)

// NoiseModel decides whether the candidate's change against the baseline is larger
// than the suite's noise. The verdict owns the noise model; the jump rule asks it.
type NoiseModel interface {
	// BeyondNoise reports whether the score's rise is beyond the suite's noise. The
	// figures stay in the report's statistics, the one place that states intervals.
	BeyondNoise(c *baseline.Comparison) bool
}

// RegressionNoise reads the noise the regression verdict's default method measures: the
// 95% interval of the change predicted item by item from the baseline's runs
// (stats.EvidenceResult, the interval the verdict prints), or the paired bootstrap
// interval of the score when there is no such measurement. A rise is beyond the noise
// when the interval lies wholly above 0.
type RegressionNoise struct{}

// BeyondNoise implements NoiseModel.
func (RegressionNoise) BeyondNoise(c *baseline.Comparison) bool {
	iv := c.CI
	if ev := c.Evidence; ev.Items > 0 {
		half := ev.HalfWidth95() // the verdict's own half-width (Student's t on run-level noise)
		iv = stats.Interval{Lo: -ev.Drop - half, Hi: -ev.Drop + half, Level: 0.95}
	}
	return iv.Lo > 0
}
