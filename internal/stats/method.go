package stats

// Regression decision methods, the values of RegressionInput.Method.
const (
	// MethodPlain blocks when the mean drops by more than max_drop: the rule seed 000
	// states. On small suites it reads noise from flaky items as regression.
	MethodPlain = "plain"
	// MethodSignificance blocks when the mean drops by more than max_drop and the
	// bootstrap interval of the paired difference lies wholly below 0. It is MethodPlain
	// with RegressionInput.RequireSignificance set. It rarely blocks by mistake and
	// rarely catches a real drop on a small suite.
	MethodSignificance = "significance"
	// MethodStable blocks when either
	//
	//   - the stable-weighted drop exceeds max_drop: each item's difference is weighted
	//     1, or UnstableWeight when the item passed in some runs and failed in others
	//     on either side, and the weighted sum is divided by all n items, so the drop
	//     stays in points of the whole suite and max_drop keeps its meaning; or
	//   - the plain drop exceeds max_drop and is significant (MethodSignificance).
	//
	// The first clause removes most of the noise of flaky items; the second keeps
	// regressions that make stable items flaky from hiding behind the down-weighting.
	// The weights need per-item pass rates on both sides and the same number of runs, at
	// least 2, on both; without them the method falls back to MethodPlain and says so.
	// docs/gate-trust.md has the simulation behind every choice here, including why
	// instability must be read from both sides and not from the baseline alone.
	MethodStable = "stable"
)

// UnstableWeight is the weight MethodStable gives the difference of an item that is
// unstable (Unstable) in the baseline runs or in the candidate runs. Chosen by the
// simulation in docs/gate-trust.md: 0 loses regressions that make items flaky, 1 is the
// plain mean; one half keeps most of the first's quiet and most of the second's
// sensitivity.
const UnstableWeight = 0.5

// stableContributions returns each item's weighted difference for MethodStable, and
// how many items were weighted down. The weight rule is symmetric in baseline and
// candidate: that symmetry keeps the weighted drop unbiased when nothing changed (with
// equal run counts, the two sides are exchangeable, and swapping them flips the sign of
// every difference while keeping every weight).
func stableContributions(diffs, basePass, candPass []float64) ([]float64, int) {
	c := make([]float64, len(diffs))
	down := 0
	for i, d := range diffs {
		if Unstable(basePass[i]) || Unstable(candPass[i]) {
			c[i] = UnstableWeight * d
			down++
		} else {
			c[i] = d
		}
	}
	return c, down
}
