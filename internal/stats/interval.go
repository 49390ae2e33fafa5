package stats

import (
	"errors"
	"fmt"
)

// Interval is a two-sided confidence interval for a mean, in the units of the data
// (points of the 0–1 score for per-item differences).
type Interval struct {
	// Lo and Hi are the interval's ends, Lo ≤ Hi.
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// Level is the coverage asked for, e.g. 0.95.
	Level float64 `json:"level"`
	// Resamples is how many resampled means the interval was read from: the bootstrap's
	// resample count, n^n for ExactBootstrapCI, and 0 for NormalCI.
	Resamples int `json:"resamples"`
}

// ExcludesZero reports whether 0 lies outside the interval, on either side.
func (iv Interval) ExcludesZero() bool { return iv.Hi < 0 || iv.Lo > 0 }

// Defaults of ResampleOptions, fixed by DESIGN.md ("Statistics").
const (
	DefaultResamples = 10000
	DefaultLevel     = 0.95
	DefaultSeed1     = 42
	DefaultSeed2     = 42
)

// ResampleOptions configures PairedBootstrap and SignFlipTest. The zero value means the
// defaults: 10,000 resamples, a 95% interval and PCG seeded (42, 42).
type ResampleOptions struct {
	// Resamples is the number of bootstrap resamples or random sign patterns; 0 means
	// DefaultResamples.
	Resamples int
	// Level is the interval's coverage in (0, 1); 0 means DefaultLevel. SignFlipTest
	// ignores it.
	Level float64
	// Seed1 and Seed2 seed the PCG generator. Both zero means (42, 42), so the seed
	// (0, 0) cannot be chosen; any other pair is used as given.
	Seed1, Seed2 uint64
	// Analytic makes MeasureDrop use the normal approximation at every n, not only
	// above MaxResampleItems (the simulation's fast path).
	Analytic bool
}

// withDefaults fills the zero fields and checks the rest.
func (o ResampleOptions) withDefaults() (ResampleOptions, error) {
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.Level == 0 {
		o.Level = DefaultLevel
	}
	if o.Seed1 == 0 && o.Seed2 == 0 {
		o.Seed1, o.Seed2 = DefaultSeed1, DefaultSeed2
	}
	if o.Resamples < 1 {
		return o, fmt.Errorf("resamples is %d; want at least 1", o.Resamples)
	}
	if err := checkLevel(o.Level); err != nil {
		return o, err
	}
	return o, nil
}

func checkLevel(level float64) error {
	if !(level > 0 && level < 1) {
		return fmt.Errorf("confidence level is %v; want a number strictly between 0 and 1, such as 0.95", level)
	}
	return nil
}

// errEmpty is returned by every estimator given no data.
var errEmpty = errors.New("no paired differences: need at least one item")
