package report

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/reliability"
)

// CalibrationLines words the judges' agreement with people: one line per labelled
// judged dimension with Krippendorff's α (judge beside the people), the people's own α,
// exact agreement, the judge's bias, and whether it meets calibration.min_alpha.
func CalibrationLines(c *reliability.Calibration) []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, d := range c.Dimensions {
		var b strings.Builder
		fmt.Fprintf(&b, "judge vs people · %s", d.Name)
		if d.Judge != "" {
			fmt.Fprintf(&b, " (%s)", d.Judge)
		}
		fmt.Fprintf(&b, ": α %s (%s) over %d labelled output(s), %d label(s)", fmtAlpha(d.Alpha), d.Level, d.Units, d.Labels)
		if d.HumanAlpha != nil {
			fmt.Fprintf(&b, "; people among themselves α %.3f", *d.HumanAlpha)
		}
		fmt.Fprintf(&b, "; exact agreement %s", fmtShare(d.Exact))
		if d.Bias != nil {
			fmt.Fprintf(&b, "; judge − people %+.2f points", *d.Bias)
		}
		if d.MinAlpha != nil {
			if d.Under() {
				fmt.Fprintf(&b, "; under calibration.min_alpha %.3g", *d.MinAlpha)
			} else {
				fmt.Fprintf(&b, "; meets calibration.min_alpha %.3g", *d.MinAlpha)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// ConfusionRows is a dimension's confusion table as rows of cells: a header row (the
// judge's values), then one row per value people gave. nil on a long scale.
func ConfusionRows(d reliability.CalibrationDimension) [][]string {
	t := d.Confusion
	if t == nil {
		return nil
	}
	head := []string{"people ↓ judge →"}
	head = append(head, t.Values...)
	rows := [][]string{head}
	for h, v := range t.Values {
		row := []string{v}
		for j := range t.Values {
			row = append(row, fmt.Sprint(t.Counts[h][j]))
		}
		rows = append(rows, row)
	}
	return rows
}

// judgeCalibrationLines is the report's line per calibrated dimension: the baseline's
// measurement, made when it was recorded.
func (r *Report) judgeCalibrationLines() []string {
	if r.Comparison == nil {
		return nil
	}
	return CalibrationLines(r.Comparison.JudgeCalibration)
}
