package stats

import (
	"errors"
	"fmt"
	"math"
)

// RegressionInput is what the regression gate compares: per-item scores of the
// baseline and of the candidate, paired by index, and the gate's settings.
type RegressionInput struct {
	// Base and Cand are the per-item scores in [0, 1], each the mean over that side's
	// runs, paired by index: Base[i] and Cand[i] are the same suite item.
	Base, Cand []float64
	// BasePassRate and CandPassRate are, per item, the fraction of that side's runs in
	// which the item passed. Optional (nil) for MethodPlain and MethodSignificance;
	// MethodStable needs both.
	BasePassRate, CandPassRate []float64
	// BaseRuns and CandRuns are the number of runs each side's scores average over.
	BaseRuns, CandRuns int
	// MaxDrop is the largest drop that does not block: absolute points of the 0–1 score
	// (0.02 = 2 pts), or with Relative a fraction of the baseline mean (0.02 = 2 %).
	MaxDrop float64
	// Relative measures the drop as −delta / baseline mean instead of −delta.
	Relative bool
	// RequireSignificance blocks only when, besides exceeding MaxDrop, the interval of
	// the drop lies wholly below 0; with MethodStable it applies to both clauses.
	RequireSignificance bool
	// Method is MethodPlain (also ""), MethodSignificance or MethodStable.
	Method string
	// Resample configures the bootstrap intervals and the sign-flip test; the zero value
	// is DESIGN.md's 10,000 resamples, 95 %, PCG (42, 42).
	Resample ResampleOptions
}

// RegressionResult is the regression gate's finding. Differences are candidate −
// baseline in absolute points of the 0–1 score; drops are their negation, in MaxDrop's
// unit (absolute points, or a fraction of BaseMean when Relative).
type RegressionResult struct {
	// Method is the method that decided; it differs from the one asked for when
	// MethodStable fell back to MethodPlain (Reason says why).
	Method string `json:"method"`
	// BaseMean and CandMean are the means of Base and Cand.
	BaseMean float64 `json:"baseline_mean"`
	CandMean float64 `json:"candidate_mean"`
	// Delta is CandMean − BaseMean; RelDelta is Delta / BaseMean (0 when BaseMean is 0,
	// where no drop is possible).
	Delta    float64 `json:"delta"`
	RelDelta float64 `json:"relative_delta"`
	// CI is the paired bootstrap interval of the mean of Cand[i] − Base[i]; PValue and
	// PValueWorse are that mean's two-sided and one-sided ("candidate worse") sign-flip
	// p-values (SignFlipTest).
	CI          Interval `json:"ci"`
	PValue      float64  `json:"p_value"`
	PValueWorse float64  `json:"p_value_worse"`
	// Drop is −Delta in MaxDrop's unit. Exceeded is DropExceeds(Drop, MaxDrop);
	// Significant is CI.Hi < 0.
	Drop        float64 `json:"drop"`
	Exceeded    bool    `json:"exceeded"`
	Significant bool    `json:"significant"`

	// The Stable fields are set only when Method is MethodStable: the stable-weighted
	// delta (see MethodStable), its interval, drop and the same two tests, and how many
	// items were unstable and weighted by UnstableWeight.
	StableDelta       float64  `json:"stable_delta,omitempty"`
	StableCI          Interval `json:"stable_ci,omitempty"`
	StableDrop        float64  `json:"stable_drop,omitempty"`
	StableExceeded    bool     `json:"stable_exceeded,omitempty"`
	StableSignificant bool     `json:"stable_significant,omitempty"`
	Unstable          int      `json:"unstable"`

	// Blocked is the verdict of the method.
	Blocked bool `json:"blocked"`
	// Reason says in one sentence, with units, why the gate blocked or passed.
	Reason string `json:"reason"`
}

// DecideRegression compares the candidate with the baseline and decides whether the
// drop blocks. It returns an error only for malformed input: unpaired or empty scores,
// pass rates of the wrong length, a negative or non-finite MaxDrop, an unknown method,
// bad resampling options.
func DecideRegression(in RegressionInput) (RegressionResult, error) {
	method, requireSig, err := checkRegressionInput(in)
	if err != nil {
		return RegressionResult{}, err
	}
	opts, err := in.Resample.withDefaults()
	if err != nil {
		return RegressionResult{}, err
	}
	diffs := make([]float64, len(in.Base))
	for i := range diffs {
		diffs[i] = in.Cand[i] - in.Base[i]
	}
	res := RegressionResult{Method: method, BaseMean: Mean(in.Base), CandMean: Mean(in.Cand)}
	res.Delta = res.CandMean - res.BaseMean
	if res.BaseMean != 0 {
		res.RelDelta = res.Delta / res.BaseMean
	}
	var b bootstrapper
	res.CI = b.interval(diffs, opts)
	flip, err := SignFlipTest(diffs, opts)
	if err != nil {
		return RegressionResult{}, err
	}
	res.PValue, res.PValueWorse = flip.TwoSided, flip.Less
	res.Drop = dropIn(res.Delta, res.BaseMean, in.Relative)
	res.Exceeded = DropExceeds(res.Drop, in.MaxDrop)
	res.Significant = res.CI.Hi < 0
	plainBlocks := res.Exceeded && (!requireSig || res.Significant)

	var fallback string
	if method == MethodStable {
		fallback = stableUnavailable(in)
	}
	if method != MethodStable || fallback != "" {
		res.Method = MethodPlain
		res.Blocked = plainBlocks
		res.Reason = plainReason(in, res, requireSig, fallback)
		if in.Relative && res.BaseMean == 0 {
			res.Reason = zeroBaseReason(res)
		}
		return res, nil
	}

	contrib, down := stableContributions(diffs, in.BasePassRate, in.CandPassRate)
	res.StableDelta, res.StableCI, res.Unstable = Mean(contrib), b.interval(contrib, opts), down
	res.StableDrop = dropIn(res.StableDelta, res.BaseMean, in.Relative)
	res.StableExceeded = DropExceeds(res.StableDrop, in.MaxDrop)
	res.StableSignificant = res.StableCI.Hi < 0
	stableBlocks := res.StableExceeded && (!requireSig || res.StableSignificant)
	res.Blocked = stableBlocks || (res.Exceeded && res.Significant)
	res.Reason = stableReason(in, res, requireSig)
	if in.Relative && res.BaseMean == 0 {
		res.Reason = zeroBaseReason(res)
	}
	return res, nil
}

// dropIn turns a delta into a drop in MaxDrop's unit.
func dropIn(delta, baseMean float64, relative bool) float64 {
	if !relative {
		return -delta
	}
	if baseMean == 0 {
		return 0 // scores are ≥ 0: nothing can drop below a baseline of 0
	}
	return -delta / baseMean
}

// checkRegressionInput validates in and resolves its method and significance rule.
func checkRegressionInput(in RegressionInput) (method string, requireSig bool, err error) {
	var errs []error
	n := len(in.Base)
	if n == 0 {
		errs = append(errs, errors.New("no baseline items"))
	}
	if len(in.Cand) != n {
		errs = append(errs, fmt.Errorf("%d candidate scores for %d baseline scores; want them paired item by item", len(in.Cand), n))
	}
	for _, pr := range []struct {
		side  string
		rates []float64
	}{{"baseline", in.BasePassRate}, {"candidate", in.CandPassRate}} {
		if pr.rates != nil && len(pr.rates) != n {
			errs = append(errs, fmt.Errorf("%d %s pass rates for %d items", len(pr.rates), pr.side, n))
		}
	}
	if !(in.MaxDrop >= 0) || math.IsInf(in.MaxDrop, 0) {
		errs = append(errs, fmt.Errorf("max_drop is %v; want a finite number ≥ 0", in.MaxDrop))
	}
	method, requireSig = in.Method, in.RequireSignificance
	switch method {
	case "", MethodPlain:
		method = MethodPlain
	case MethodSignificance:
		method, requireSig = MethodPlain, true
	case MethodStable:
	default:
		errs = append(errs, fmt.Errorf("regression method is %q; want %q, %q or %q", in.Method, MethodPlain, MethodSignificance, MethodStable))
	}
	return method, requireSig, errors.Join(errs...)
}

// stableUnavailable says why MethodStable cannot run on in, or "" when it can.
func stableUnavailable(in RegressionInput) string {
	switch {
	case in.BasePassRate == nil || in.CandPassRate == nil:
		return "the stable method needs per-item pass rates of both sides"
	case in.BaseRuns < 2 || in.BaseRuns != in.CandRuns:
		return fmt.Sprintf("the stable method needs the same number of runs, at least 2, on both sides; got %d baseline and %d candidate", in.BaseRuns, in.CandRuns)
	}
	return ""
}
