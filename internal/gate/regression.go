package gate

import (
	"fmt"
	"sort"

	"github.com/evalgate/evalgate/internal/suggest"
)

// Regression is the gate against the baseline: block (or warn) when the mean score
// drops by more than MaxDrop.
type Regression struct {
	// MaxDrop is the allowed drop: absolute points of the 0–1 score (0.02 = 2 points)
	// or, in relative mode, a fraction of the baseline mean. Default 0.02.
	MaxDrop *float64 `yaml:"max_drop,omitempty" json:"max_drop,omitempty"`
	Mode    string   `yaml:"mode,omitempty" json:"mode,omitempty"`   // absolute (default) or relative
	Level   string   `yaml:"level,omitempty" json:"level,omitempty"` // hard (default) or soft
	// RequireSignificance blocks only when the drop exceeds MaxDrop and the 95%
	// bootstrap interval of the paired per-item difference lies below 0.
	RequireSignificance bool `yaml:"require_significance,omitempty" json:"require_significance,omitempty"`
	// Method is the decision rule: stable (the default: items that flip between runs
	// count half; with one run, or unequal run counts, it is plain), plain, or
	// significance (plain, and the 95% interval must lie below 0).
	Method string `yaml:"method,omitempty" json:"method,omitempty"`
	// Dimensions sets per-dimension max drops (absolute points of the dimension's
	// normalized mean).
	Dimensions map[string]float64 `yaml:"dimensions,omitempty" json:"dimensions,omitempty"`
	Disabled   bool               `yaml:"disabled,omitempty" json:"disabled,omitempty"`
}

// DefaultMaxDrop is seed 000's eval-gate threshold: ≤ 2% (2 points) drop allowed.
const DefaultMaxDrop = 0.02

// Modes of the regression gate.
const (
	Absolute = "absolute"
	Relative = "relative"
)

func (r *Regression) validate(base string, dims []string) error {
	if r.MaxDrop == nil {
		d := DefaultMaxDrop
		r.MaxDrop = &d
	}
	if *r.MaxDrop < 0 || *r.MaxDrop > 1 {
		return &FieldError{base + ".max_drop", fmt.Sprintf("max_drop %v; want a fraction in [0, 1] (0.02 = 2 points)", *r.MaxDrop)}
	}
	if r.Mode == "" {
		r.Mode = Absolute
	}
	if r.Mode != Absolute && r.Mode != Relative {
		return &FieldError{base + ".mode", fmt.Sprintf("mode %q; want absolute or relative", r.Mode)}
	}
	if r.Level == "" {
		r.Level = Hard
	}
	if r.Level != Hard && r.Level != Soft {
		return &FieldError{base + ".level", fmt.Sprintf("level %q; want hard or soft", r.Level)}
	}
	switch r.Method {
	case "":
		// stable is plain with one run (or unequal run counts), and with N ≥ 2 runs on
		// both sides blocks fewer unchanged PRs: docs/gate-trust.md.
		r.Method = "stable"
		if r.RequireSignificance {
			r.Method = "significance"
		}
	case "plain", "significance", "stable":
	default:
		return &FieldError{base + ".method", fmt.Sprintf("method %q; want plain, significance or stable", r.Method)}
	}
	names := make([]string, 0, len(r.Dimensions))
	for d := range r.Dimensions {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		if !contains(dims, d) {
			return &FieldError{base + ".dimensions." + d, fmt.Sprintf("unknown dimension %q; %swant one of %v", d, suggest.DidYouMean(d, dims), dims)}
		}
		if v := r.Dimensions[d]; v < 0 || v > 1 {
			return &FieldError{base + ".dimensions." + d, fmt.Sprintf("max drop %v; want [0, 1]", v)}
		}
	}
	return nil
}

// Defaults returns the regression gate in force: the configured one, or seed 000's
// default (hard, 2 absolute points) when the grading system names none.
func (s *System) RegressionGate() *Regression {
	if s.Regression != nil {
		return s.Regression
	}
	d := DefaultMaxDrop
	return &Regression{MaxDrop: &d, Mode: Absolute, Level: Hard, Method: "stable"}
}
