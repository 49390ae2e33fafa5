// Package rubric is the scoring system: dimensions, each with a scorer, a scale and a
// weight; ceilings and vetoes that cap an item's score; the per-sample pass rule; and
// Score, which turns a suite and its runs into per-item, per-run and summary figures.
package rubric

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/evalgate/evalgate/internal/pricing"
)

// System is a scoring system (`scoringSystem/X.Y.Z`), as written under `scoring:` in the
// config file.
type System struct {
	Version    string      `yaml:"version" json:"version"`
	Dimensions []Dimension `yaml:"dimensions" json:"dimensions"`
	Ceilings   []Ceiling   `yaml:"ceilings,omitempty" json:"ceilings,omitempty"`
	Vetoes     []Veto      `yaml:"vetoes,omitempty" json:"vetoes,omitempty"`
	Pass       PassRule    `yaml:"pass,omitempty" json:"pass"`
	// CorrectDimension names the dimension whose full credit makes an answer "correct"
	// for tokens_per_correct_answer (seed 001: accuracy_score = 2). Empty: a passing item.
	CorrectDimension string `yaml:"correct_dimension,omitempty" json:"correct_dimension,omitempty"`
	// Pricer prices the tokens results and judges record (the config's price table and
	// metadata.model_id). It is not part of the scoring system or its hash: a price
	// change never invalidates a baseline. Nil: no cost is computed.
	Pricer *pricing.Pricer `yaml:"-" json:"-"`

	scorers []Scorer // built by Build, one per dimension
	// Dimension indices resolved by Build, so scoring a sample does not search by name:
	// per ceiling, per veto, per pass condition (-1 for a field condition).
	ceilingDim, vetoDim, conditionDim []int
	hash                              string // Hash, fixed at Build
}

// Ceiling caps an item's score when a dimension's raw value is below a threshold
// (seed 003's accuracy ceiling: accuracy < 5 caps at 0.4, < 7 at 0.7).
type Ceiling struct {
	Dimension string  `yaml:"dimension" json:"dimension"`
	Below     float64 `yaml:"below" json:"below"`
	Cap       float64 `yaml:"cap" json:"cap"`
}

// Veto caps an item's score when a dimension fails (seed 003's safety gate: cap 0).
type Veto struct {
	Dimension string  `yaml:"dimension" json:"dimension"`
	Cap       float64 `yaml:"cap" json:"cap"`
}

// PassRule decides whether one sample passes. With neither field set, a sample passes
// at score ≥ DefaultPassScore. A timed-out or errored sample never passes.
type PassRule struct {
	MinScore *float64    `yaml:"min_score,omitempty" json:"min_score,omitempty"`
	Require  []Condition `yaml:"require,omitempty" json:"require,omitempty"`
}

// DefaultPassScore is the pass threshold when the scoring system sets no pass rule.
const DefaultPassScore = 0.8

// Condition is one clause of a pass rule, on a dimension's raw value or on a sample
// field (latency_e2e_ms, latency_model_ms, input_tokens, output_tokens, total_tokens, score).
type Condition struct {
	Dimension string   `yaml:"dimension,omitempty" json:"dimension,omitempty"`
	Field     string   `yaml:"field,omitempty" json:"field,omitempty"`
	Min       *float64 `yaml:"min,omitempty" json:"min,omitempty"`
	Max       *float64 `yaml:"max,omitempty" json:"max,omitempty"`
}

// Hash is the sha256 of the canonical JSON of the scoring system and of what its scorers
// read besides (a JSON Schema's content; a judge's model, template and parameters).
// Grading changes never touch it. It is computed once, by Build.
func (s *System) Hash() string {
	if s.hash != "" {
		return s.hash
	}
	return s.computeHash()
}

func (s *System) computeHash() string {
	// A schema file's path depends on where the config sits; its content is hashed
	// below instead, so the same rubric hashes the same from any directory.
	cp := *s
	cp.Dimensions = append([]Dimension(nil), s.Dimensions...)
	for i := range cp.Dimensions {
		cp.Dimensions[i].Schema = ""
	}
	b, _ := json.Marshal(&cp)
	h := sha256.New()
	h.Write(b)
	for _, sc := range s.scorers {
		if fh, ok := sc.(interface{ ContentHash() string }); ok {
			h.Write([]byte(fh.ContentHash()))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// DimensionIndex returns the index of the named dimension, or -1.
func (s *System) DimensionIndex(name string) int {
	for i := range s.Dimensions {
		if s.Dimensions[i].Name == name {
			return i
		}
	}
	return -1
}
