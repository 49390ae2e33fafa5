// Package gate is the grading system (`gradingSystem/X.Y.Z`): hard gates that block,
// soft gates that warn, the regression gate against the baseline, and letter grades with
// bands, tier trim and categorical veto (seed 004). It turns scores into a Verdict.
package gate

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/suggest"
)

// System is a grading system, as written under `grading:` in the config file.
type System struct {
	Version    string      `yaml:"version" json:"version"`
	Gates      []Gate      `yaml:"gates,omitempty" json:"gates,omitempty"`
	Regression *Regression `yaml:"regression,omitempty" json:"regression,omitempty"`
	Grades     *Grades     `yaml:"grades,omitempty" json:"grades,omitempty"`
}

// Gate is a threshold on a summary metric (the mean over runs).
type Gate struct {
	Name   string   `yaml:"name" json:"name"`
	Metric string   `yaml:"metric" json:"metric"`
	Min    *float64 `yaml:"min,omitempty" json:"min,omitempty"` // pass when metric ≥ min
	Max    *float64 `yaml:"max,omitempty" json:"max,omitempty"` // pass when metric ≤ max
	// MaxIncrease gates the metric's change against the baseline instead: pass when
	// (candidate − baseline) / baseline ≤ MaxIncrease (`max_increase: 20%`).
	MaxIncrease *Increase `yaml:"max_increase,omitempty" json:"max_increase,omitempty"`
	Level       string    `yaml:"level,omitempty" json:"level,omitempty"`
}

// Levels of a gate.
const (
	Hard = "hard" // a failure blocks (exit 1, check failure)
	Soft = "soft" // a failure warns
)

var gradingVersion = regexp.MustCompile(`^gradingSystem/\d+\.\d+\.\d+$`)

// FieldError is a problem at one YAML path of the config: rubric's one type, which the
// config loader turns into file:line.
type FieldError = rubric.FieldError

// Validate checks the grading system. metricKnown says whether a metric name exists
// for the scoring system at hand (so a typo is refused, with the list of names);
// dimensions are the scoring system's dimension names.
func (s *System) Validate(base string, metricKnown func(string) bool, metricNames []string, dimensions []string) error {
	fe := func(path, format string, args ...any) error {
		return &FieldError{Path: base + path, Msg: fmt.Sprintf(format, args...)}
	}
	if !gradingVersion.MatchString(s.Version) {
		return fe(".version", "grading version is %q; want gradingSystem/X.Y.Z (e.g. gradingSystem/1.0.0)", s.Version)
	}
	names := map[string]bool{}
	for i := range s.Gates {
		g := &s.Gates[i]
		at := fmt.Sprintf(".gates[%d]", i)
		if g.Metric == "" {
			return fe(at+".metric", "gate has no metric")
		}
		if !metricKnown(g.Metric) {
			return fe(at+".metric", "unknown metric %q; %swant one of %v", g.Metric, suggest.DidYouMean(g.Metric, metricNames), metricNames)
		}
		if g.Name == "" {
			g.Name = g.Metric
		}
		if names[g.Name] {
			return fe(at+".name", "duplicate gate name %q", g.Name)
		}
		names[g.Name] = true
		if n := b2i(g.Min != nil) + b2i(g.Max != nil) + b2i(g.MaxIncrease != nil); n != 1 {
			return fe(at, "gate %q needs exactly one of min, max or max_increase", g.Name)
		}
		if g.MaxIncrease != nil && *g.MaxIncrease < 0 {
			return fe(at+".max_increase", "max_increase is %v; want 0 or more (20%% allows a fifth more than the baseline)", float64(*g.MaxIncrease))
		}
		if g.Level == "" {
			g.Level = Hard
		}
		if g.Level != Hard && g.Level != Soft {
			return fe(at+".level", "level %q; want hard or soft", g.Level)
		}
	}
	if r := s.Regression; r != nil {
		if err := r.validate(base+".regression", dimensions); err != nil {
			return err
		}
	}
	if g := s.Grades; g != nil {
		if err := g.validate(base+".grades", dimensions); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
