package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/reliability"
)

// ReliabilityLines words a judge reliability measurement: a line saying what was
// measured, then one per judged dimension with its self-agreement (Krippendorff's α,
// exact agreement), the verdict noise, a panel's inter-reviewer α, and whether it is
// under the α floor (then it cannot block a pull request by itself).
func ReliabilityLines(m *reliability.Measurement, floor float64) []string {
	if m == nil || len(m.Dimensions) == 0 {
		return nil
	}
	out := []string{fmt.Sprintf("judge reliability: %d output(s) each judged %d times with the cache bypassed (floor α %.3g)", m.Sample, m.Repeats, floor)}
	for _, d := range m.Dimensions {
		var b strings.Builder
		fmt.Fprintf(&b, "judge reliability · %s", d.Name)
		if d.Judge != "" {
			fmt.Fprintf(&b, " (%s)", d.Judge)
		}
		fmt.Fprintf(&b, ": self-agreement α %s (%s), exact agreement %s, verdict std %.3f", fmtAlpha(d.Alpha), d.Level, fmtShare(d.Exact), math.Sqrt(d.Variance))
		if d.InterReviewer != nil {
			fmt.Fprintf(&b, ", inter-reviewer α %s", fmtAlpha(d.InterReviewer))
		}
		if d.Alpha != nil && *d.Alpha < floor {
			b.WriteString(": under the floor, so its drop alone cannot block")
		}
		out = append(out, b.String())
	}
	return out
}

func fmtAlpha(a *float64) string {
	if a == nil {
		return "undefined (every verdict the same)"
	}
	return fmt.Sprintf("%.3f", *a)
}

func fmtShare(x *float64) string {
	if x == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100**x)
}

// judgeReliabilityLines is the report's judge reliability section: the baseline's
// measurement, against the floor the regression decision applied.
func (r *Report) judgeReliabilityLines() []string {
	if r.Comparison == nil {
		return nil
	}
	floor := gate.DefaultJudgeAlphaFloor // no regression decision
	if r.Regression != nil && r.Regression.Judge != nil {
		floor = r.Regression.Judge.Floor
	}
	lines := ReliabilityLines(r.Comparison.JudgeReliability, floor)
	if len(lines) > 0 && judgesRejudged(r.Comparison.JudgeChanges) {
		lines[0] += "; measured with the baseline's judges, which changed since: these figures are theirs, not the current judges' (`evalgate judge-check` measures the current ones)"
	}
	return lines
}

// judgesRejudged says a judge's configuration changed since the baseline (not only the
// provider's reported build), so the baseline's reliability measurement is another
// judge's.
func judgesRejudged(changes []reliability.Change) bool {
	for _, c := range changes {
		if c.Rejudgeable {
			return true
		}
	}
	return false
}
