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
		if d.Alpha == nil {
			// Every verdict of the sample was the same value: α's expected disagreement is
			// 0, so α is undefined; the judge never disagreed with itself, and the gate does
			// not hold the dimension under the floor.
			fmt.Fprintf(&b, ": self-agreement α undefined (%s: every verdict of the sample the same, so not under the floor)", d.Level)
		} else {
			fmt.Fprintf(&b, ": self-agreement α %s (%s)", fmtAlpha(d.Alpha), d.Level)
		}
		fmt.Fprintf(&b, ", exact agreement %s, verdict std %.3f", fmtShare(d.Exact), math.Sqrt(d.Variance))
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
// measurement of the judges still scoring, against the floor the regression decision
// applied, then a line per judged dimension whose judge changed since the baseline
// measured it (its reliability unknown, the old judge's figure not used).
func (r *Report) judgeReliabilityLines() []string {
	if r.Comparison == nil {
		return nil
	}
	floor := gate.DefaultJudgeAlphaFloor // no regression decision
	if r.Regression != nil && r.Regression.Judge != nil {
		floor = r.Regression.Judge.Floor
	}
	return append(ReliabilityLines(r.Comparison.JudgeReliability, floor), UnmeasuredLines(r.Comparison.JudgeUnmeasured)...)
}

// UnmeasuredLines words the judged dimensions whose judge changed since the baseline
// measured its reliability: the new judge's self-agreement is unknown, the baseline's
// figure was the old judge's and is not used, and the dimension's drop alone cannot
// block until a baseline made with the new judge measures it.
func UnmeasuredLines(us []reliability.Unmeasured) []string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		out = append(out, fmt.Sprintf("judge reliability · %s (%s): unmeasured, the judge changed since the baseline (%s); "+
			"the baseline's self-agreement α %s was the old judge's (%s) and is not used, so its drop alone cannot block "+
			"(make the baseline again with the new judge to measure it; `evalgate judge-check` shows it now)",
			u.Dimension, u.Judge, strings.Join(u.Why, "; "), fmtAlpha(u.OldAlpha), u.OldJudge))
	}
	return out
}
