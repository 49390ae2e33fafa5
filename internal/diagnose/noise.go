package diagnose

import (
	"fmt"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/stats"
)

// NoiseModel decides whether the candidate's change against the baseline is larger
// than the suite's noise. The verdict owns the noise model; the jump rule asks it.
type NoiseModel interface {
	// BeyondNoise reports whether the score's rise is beyond the suite's noise, and the
	// evidence in a few words ("95% CI [+1.2, +4.8] pts").
	BeyondNoise(c *baseline.Comparison) (bool, string)
}

// VerdictNoise reads the interval the regression verdict decided with: the
// stable-weighted interval when the stable method decided, else the paired bootstrap
// interval of the score. A rise is beyond the noise when the interval lies wholly
// above 0.
type VerdictNoise struct{}

// BeyondNoise implements NoiseModel.
func (VerdictNoise) BeyondNoise(c *baseline.Comparison) (bool, string) {
	iv := c.CI
	if c.Decision.Method == stats.MethodStable {
		iv = c.Decision.StableCI
	}
	return iv.Lo > 0, fmt.Sprintf("%.0f%% CI [%+.1f, %+.1f] pts", 100*level(iv), 100*iv.Lo, 100*iv.Hi)
}

func level(iv stats.Interval) float64 {
	if iv.Level == 0 {
		return stats.DefaultLevel
	}
	return iv.Level
}
