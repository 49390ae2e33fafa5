package reliability

import (
	"fmt"

	"github.com/evalgate/evalgate/internal/stats"
)

// Calibration is how well the judges agree with people: the config's calibration set
// (outputs with human labels) judged once, per labelled judged dimension.
type Calibration struct {
	// Outputs is the number of labelled outputs in the set.
	Outputs int `json:"outputs"`
	// Dimensions has one entry per judged dimension the set labels, in scoring order.
	Dimensions []CalibrationDimension `json:"dimensions"`
}

// CalibrationDimension is one judged dimension's agreement with the human labels.
type CalibrationDimension struct {
	Name string `json:"dimension"`
	// Judge names the judge, or the panel's reviewers joined by ", ".
	Judge string `json:"judge"`
	// Level is the level of measurement α was computed at (as for self-agreement).
	Level stats.Level `json:"level"`
	// Alpha is Krippendorff's α with the judge as one more coder beside the people: each
	// labelled output is a unit holding the judge's verdict and every human label. nil
	// when undefined (every value the same).
	Alpha *float64 `json:"alpha"`
	// HumanAlpha is the people's α among themselves, over the outputs two or more of
	// them labelled: the agreement a judge can hope to reach. nil when no output has
	// two labels.
	HumanAlpha *float64 `json:"human_alpha,omitempty"`
	// Exact is the share of (judge, person) pairs that gave the same value.
	Exact *float64 `json:"exact_agreement"`
	// Bias is the mean of judge − person over those pairs, in raw scale points (a
	// generous judge is positive); nil on a pass/fail scale.
	Bias *float64 `json:"bias,omitempty"`
	// Units is the number of outputs with a judge verdict and at least one label;
	// Labels the number of human labels in them.
	Units  int `json:"units"`
	Labels int `json:"labels"`
	// MinAlpha is the agreement the config requires (calibration.min_alpha); nil: none.
	MinAlpha *float64 `json:"min_alpha,omitempty"`
	// Confusion counts (person, judge) pairs on a short scale; nil on a long one.
	Confusion *Confusion `json:"confusion,omitempty"`
}

// Confusion is a table of counts: Counts[h][j] is how many times a person said
// Values[h] where the judge said Values[j].
type Confusion struct {
	Values []string `json:"values"`
	Counts [][]int  `json:"counts"`
}

// Under reports whether the dimension's agreement is below its required minimum. An
// undefined α under a minimum counts as under: agreement that cannot be told from
// chance meets no requirement.
func (d CalibrationDimension) Under() bool {
	return d.MinAlpha != nil && (d.Alpha == nil || *d.Alpha < *d.MinAlpha)
}

// Failures words every dimension under its required agreement, one line each; empty
// when every requirement is met.
func (c *Calibration) Failures() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, d := range c.Dimensions {
		if !d.Under() {
			continue
		}
		got := "undefined"
		if d.Alpha != nil {
			got = fmt.Sprintf("%.3f", *d.Alpha)
		}
		out = append(out, fmt.Sprintf("dimension %q: the judge agrees with people at α %s over %d output(s), under calibration.min_alpha %.3g", d.Name, got, d.Units, *d.MinAlpha))
	}
	return out
}
