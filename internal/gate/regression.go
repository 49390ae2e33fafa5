package gate

import (
	"fmt"
	"sort"

	"github.com/evalgate/evalgate/internal/suggest"
)

// Regression is the gate against the baseline, as configured under
// `grading.regression`: block (or warn) when the mean score drops by more than MaxDrop,
// decided by Method. gate is the only package that defines these settings.
type Regression struct {
	// MaxDrop is the allowed drop: absolute points of the 0–1 score (0.02 = 2 points)
	// or, in relative mode, a fraction of the baseline mean. Default 0.02.
	MaxDrop *float64 `yaml:"max_drop,omitempty" json:"max_drop,omitempty"`
	Mode    string   `yaml:"mode,omitempty" json:"mode,omitempty"`   // absolute (default) or relative
	Level   string   `yaml:"level,omitempty" json:"level,omitempty"` // hard (default) or soft
	// RequireSignificance blocks only when the drop exceeds MaxDrop and the 95%
	// bootstrap interval of the paired per-item difference lies below 0.
	RequireSignificance bool `yaml:"require_significance,omitempty" json:"require_significance,omitempty"`
	// Method is the decision rule: evidence (the default), plain or significance;
	// stable is a deprecated name of evidence. See MethodEvidence.
	Method string `yaml:"method,omitempty" json:"method,omitempty"`
	// Inconclusive is what an inconclusive result does: warn (default) or block.
	Inconclusive InconclusivePolicy `yaml:"inconclusive,omitempty" json:"inconclusive,omitempty"`
	// Notice is set by validation when the config asked for a deprecated method.
	Notice string `yaml:"-" json:"-"`
	// Dimensions sets per-dimension max drops (absolute points of the dimension's
	// normalized mean).
	Dimensions map[string]float64 `yaml:"dimensions,omitempty" json:"dimensions,omitempty"`
	Disabled   bool               `yaml:"disabled,omitempty" json:"disabled,omitempty"`
	// JudgeAlphaFloor is the judge self-agreement (Krippendorff's α, measured when the
	// baseline was made) under which a judged dimension cannot block by itself: its
	// drop alone gives inconclusive. Default DefaultJudgeAlphaFloor (0.667).
	JudgeAlphaFloor *float64 `yaml:"judge_alpha_floor,omitempty" json:"judge_alpha_floor,omitempty"`
	// RequireBaseline fails the check when the config names a baseline file that does
	// not exist (a misspelt path would otherwise skip the regression gate), except on the
	// pull request that adds evalgate. The action's require-baseline input does the same.
	RequireBaseline bool `yaml:"require_baseline,omitempty" json:"require_baseline,omitempty"`
}

// DefaultMaxDrop is seed 000's eval-gate threshold: ≤ 2% (2 points) drop allowed.
const DefaultMaxDrop = 0.02

// Modes of the regression gate.
const (
	Absolute = "absolute"
	Relative = "relative"
)

// DefaultRegression is the regression gate of a grading system that configures none:
// every setting at its default (hard, 2 absolute points, evidence, inconclusive warns).
func DefaultRegression() *Regression {
	r := &Regression{}
	r.fillDefaults()
	return r
}

// fillDefaults sets every unset setting to its default; the one place they are stated.
// A deprecated method is replaced, with a Notice.
func (r *Regression) fillDefaults() {
	if r.MaxDrop == nil {
		d := DefaultMaxDrop
		r.MaxDrop = &d
	}
	if r.Mode == "" {
		r.Mode = Absolute
	}
	if r.Level == "" {
		r.Level = Hard
	}
	switch r.Method {
	case "":
		// evidence blocks far fewer unchanged pull requests than plain and catches
		// about as many real breaks: docs/gate-trust.md.
		r.Method = MethodEvidence
		if r.RequireSignificance {
			r.Method = MethodSignificance
		}
	case MethodStable:
		r.Method = MethodEvidence
		r.Notice = "regression method \"stable\" is deprecated and now means \"evidence\": write `method: evidence` (docs/gate-trust.md)"
	}
	if r.Inconclusive == "" {
		r.Inconclusive = InconclusiveWarn
	}
}

func (r *Regression) validate(base string, dims []string) error {
	r.fillDefaults()
	if !(*r.MaxDrop >= 0 && *r.MaxDrop <= 1) { // NaN too: it compares false with every drop
		return &FieldError{Path: base + ".max_drop", Msg: fmt.Sprintf("max_drop %v; want a fraction in [0, 1] (0.02 = 2 points)", *r.MaxDrop)}
	}
	if r.Mode != Absolute && r.Mode != Relative {
		return &FieldError{Path: base + ".mode", Msg: fmt.Sprintf("mode %q; want absolute or relative", r.Mode)}
	}
	if r.Level != Hard && r.Level != Soft {
		return &FieldError{Path: base + ".level", Msg: fmt.Sprintf("level %q; want hard or soft", r.Level)}
	}
	switch r.Method {
	case MethodEvidence, MethodPlain, MethodSignificance:
	default:
		return &FieldError{Path: base + ".method", Msg: fmt.Sprintf("method %q; want evidence, plain or significance", r.Method)}
	}
	switch r.Inconclusive {
	case InconclusiveWarn, InconclusiveBlock:
	default:
		return &FieldError{Path: base + ".inconclusive", Msg: fmt.Sprintf("inconclusive %q; want warn or block", r.Inconclusive)}
	}
	if f := r.JudgeAlphaFloor; f != nil && !(*f >= -1 && *f <= 1) {
		return &FieldError{Path: base + ".judge_alpha_floor", Msg: fmt.Sprintf("judge_alpha_floor %v; want Krippendorff's α in [-1, 1] (default %.3g)", *f, DefaultJudgeAlphaFloor)}
	}
	names := make([]string, 0, len(r.Dimensions))
	for d := range r.Dimensions {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		if !contains(dims, d) {
			return &FieldError{Path: base + ".dimensions." + d, Msg: fmt.Sprintf("unknown dimension %q; %swant one of %v", d, suggest.DidYouMean(d, dims), dims)}
		}
		if v := r.Dimensions[d]; v < 0 || v > 1 {
			return &FieldError{Path: base + ".dimensions." + d, Msg: fmt.Sprintf("max drop %v; want [0, 1]", v)}
		}
	}
	return nil
}

// RegressionGate returns the regression gate in force: the configured one, or seed 000's
// default (hard, 2 absolute points) when the grading system names none.
func (s *System) RegressionGate() *Regression {
	if s.Regression != nil {
		return s.Regression
	}
	return DefaultRegression()
}
