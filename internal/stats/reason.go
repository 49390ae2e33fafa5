package stats

import (
	"fmt"
	"math"
	"strings"
)

// plainReason writes RegressionResult.Reason for MethodPlain and MethodSignificance.
func plainReason(in RegressionInput, res RegressionResult, requireSig bool, fallback string) string {
	var b strings.Builder
	b.WriteString("the mean " + movement(res.Drop, in.Relative))
	limit := formatDrop(in.MaxDrop, in.Relative)
	switch {
	case !res.Exceeded:
		fmt.Fprintf(&b, ", within max_drop %s", limit)
	case !requireSig:
		fmt.Fprintf(&b, ", more than max_drop %s", limit)
	case res.Significant:
		fmt.Fprintf(&b, ", more than max_drop %s, and the %s interval %s lies below 0", limit, formatLevel(res.CI.Level), formatInterval(res.CI))
	default:
		fmt.Fprintf(&b, ", more than max_drop %s, but the %s interval %s includes 0: not significant", limit, formatLevel(res.CI.Level), formatInterval(res.CI))
	}
	if fallback != "" {
		fmt.Fprintf(&b, " (plain method: %s)", fallback)
	}
	return b.String()
}

// stableReason writes RegressionResult.Reason for MethodStable.
func stableReason(in RegressionInput, res RegressionResult, requireSig bool) string {
	limit := formatDrop(in.MaxDrop, in.Relative)
	stable := fmt.Sprintf("the mean over stable items (%d unstable items weighted %g) %s", res.Unstable, UnstableWeight, movement(res.StableDrop, in.Relative))
	plain := "the mean " + movement(res.Drop, in.Relative)
	stableBlocks := res.StableExceeded && (!requireSig || res.StableSignificant)
	switch {
	case stableBlocks && requireSig:
		return fmt.Sprintf("%s, more than max_drop %s, and its %s interval %s lies below 0", stable, limit, formatLevel(res.StableCI.Level), formatInterval(res.StableCI))
	case stableBlocks:
		return fmt.Sprintf("%s, more than max_drop %s (%s)", stable, limit, plain)
	case res.Blocked:
		return fmt.Sprintf("%s, more than max_drop %s, and the %s interval %s lies below 0 (%s)", plain, limit, formatLevel(res.CI.Level), formatInterval(res.CI), stable)
	case res.Exceeded:
		return fmt.Sprintf("%s, more than max_drop %s, but %s and the %s interval %s includes 0: read as noise of unstable items", plain, limit, stable, formatLevel(res.CI.Level), formatInterval(res.CI))
	case res.StableExceeded:
		return fmt.Sprintf("%s, more than max_drop %s, but its %s interval %s includes 0: not significant (%s)", stable, limit, formatLevel(res.StableCI.Level), formatInterval(res.StableCI), plain)
	}
	return fmt.Sprintf("%s, within max_drop %s (%s)", plain, limit, stable)
}

// zeroBaseReason is Reason in relative mode when the baseline mean is 0.
func zeroBaseReason(res RegressionResult) string {
	return fmt.Sprintf("the baseline mean is 0, so no relative drop is possible (the mean %s)", movement(-res.Delta, false))
}

// movement says how a drop moved: "dropped 2.40 pts", "rose 1.00 pts", "did not change".
// Like DropExceeds it reads the drop on the 1e-9 grid, so float noise is "no change".
func movement(drop float64, relative bool) string {
	switch r := math.Round(drop / dropResolution); {
	case r > 0:
		return "dropped " + formatDrop(drop, relative)
	case r < 0:
		return "rose " + formatDrop(-drop, relative)
	}
	return "did not change"
}

// formatDrop prints a non-negative drop with its unit: "2.40 pts" or "2.50 %".
func formatDrop(d float64, relative bool) string {
	if relative {
		return fmt.Sprintf("%.2f %%", 100*d)
	}
	return fmt.Sprintf("%.2f pts", 100*d)
}

// formatInterval prints an interval of absolute differences in points, signed, with
// the typographic minus: "[−5.10, +0.30] pts".
func formatInterval(iv Interval) string {
	return fmt.Sprintf("[%s, %s] pts", signedPoints(iv.Lo), signedPoints(iv.Hi))
}

func signedPoints(x float64) string {
	return strings.Replace(fmt.Sprintf("%+.2f", 100*x), "-", "−", 1)
}

func formatLevel(level float64) string { return fmt.Sprintf("%g %%", 100*level) }
