package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/rubric"
)

// estimatedActual marks a gate's figure that is an estimate: "≈2,490 ms (±1 %)".
func estimatedActual(actual string, e *rubric.Estimate) string {
	if e == nil {
		return actual
	}
	return fmt.Sprintf("≈%s (±%s %%)", actual, rubric.FormatMetric(100*e.RelativeError, rubric.UnitScore))
}

// estimatesNotice says, at the top of every format, which metrics are estimated, how,
// and from what size on.
func estimatesNotice(est map[string]rubric.Estimate) string {
	names := slices.Sorted(maps.Keys(est))
	var e rubric.Estimate
	for _, k := range names {
		if est[k].Values > e.Values {
			e = est[k]
		}
	}
	return fmt.Sprintf("%s %s %s: past %s latencies a run's percentiles come from a %s, within ±%s %% of the exact figure (the largest run has %s).",
		strings.Join(names, ", "), pluralIs(len(names)), "estimated", rubric.Thousands(e.ExactUpTo),
		e.Method, rubric.FormatMetric(100*e.RelativeError, rubric.UnitScore), rubric.Thousands(e.Values))
}

func pluralIs(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
