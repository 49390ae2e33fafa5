package diagnose

import "fmt"

// Config tunes the rules, under `diagnose:` in the config file. Every rule is on by
// default; `enabled: false` turns one off.
type Config struct {
	SystematicMiss    *SystematicMiss    `yaml:"systematic_miss,omitempty" json:"systematic_miss,omitempty"`
	TagFailure        *TagFailure        `yaml:"tag_failure,omitempty" json:"tag_failure,omitempty"`
	LoneDrop          *LoneDrop          `yaml:"lone_drop,omitempty" json:"lone_drop,omitempty"`
	NormalizationMiss *NormalizationMiss `yaml:"normalization_miss,omitempty" json:"normalization_miss,omitempty"`
	JudgeErrors       *JudgeErrors       `yaml:"judge_errors,omitempty" json:"judge_errors,omitempty"`
	BudgetDrift       *BudgetDrift       `yaml:"budget_drift,omitempty" json:"budget_drift,omitempty"`
	Jump              *Jump              `yaml:"jump,omitempty" json:"jump,omitempty"`
}

// SystematicMiss fires when a dimension scores 0 on at least MinShare of scored items.
type SystematicMiss struct {
	Enabled  *bool    `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	MinShare *float64 `yaml:"min_share,omitempty" json:"min_share,omitempty"` // default 0.95
	MinItems *int     `yaml:"min_items,omitempty" json:"min_items,omitempty"` // default 3
}

// TagFailure fires when every item of a tag with at least MinItems items fails one
// dimension.
type TagFailure struct {
	Enabled  *bool `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	MinItems *int  `yaml:"min_items,omitempty" json:"min_items,omitempty"` // default 3
}

// LoneDrop fires when one dimension falls by at least MinDrop against the baseline
// while every other dimension moves by at most Hold.
type LoneDrop struct {
	Enabled *bool    `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	MinDrop *float64 `yaml:"min_drop,omitempty" json:"min_drop,omitempty"` // default 0.05 (5 pts)
	Hold    *float64 `yaml:"hold,omitempty" json:"hold,omitempty"`         // default 0.02 (2 pts)
}

// NormalizationMiss fires when a contains or exact dimension scores 0 on an output that
// matches the expected text after case folding, trimming and punctuation stripping.
type NormalizationMiss struct {
	Enabled *bool `yaml:"enabled,omitempty" json:"enabled,omitempty"`
}

// JudgeErrors fires when judge parse errors exceed MaxShare of judged samples.
type JudgeErrors struct {
	Enabled  *bool    `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	MaxShare *float64 `yaml:"max_share,omitempty" json:"max_share,omitempty"` // default 0.05
}

// BudgetDrift fires when latency (p50, p95) or tokens per item rise by more than
// MaxIncrease against the baseline.
type BudgetDrift struct {
	Enabled     *bool    `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	MaxIncrease *float64 `yaml:"max_increase,omitempty" json:"max_increase,omitempty"` // default 0.20 (+20 %)
}

// Jump fires when the score rises by at least MinRise and beyond the suite's noise.
type Jump struct {
	Enabled *bool    `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	MinRise *float64 `yaml:"min_rise,omitempty" json:"min_rise,omitempty"` // default 0.02 (2 pts)
}

// settings are the resolved thresholds; off rules have on == false.
type settings struct {
	sysOn, tagOn, loneOn, normOn, judgeOn, driftOn, jumpOn bool
	sysShare                                               float64
	sysItems, tagItems                                     int
	loneDrop, loneHold, judgeShare, driftIncrease, jumpMin float64
}

func on(p *bool) bool { return p == nil || *p }

func f64(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

func (c *Config) withDefaults() settings {
	if c == nil {
		c = &Config{}
	}
	s := settings{sysOn: true, tagOn: true, loneOn: true, normOn: true, judgeOn: true, driftOn: true, jumpOn: true,
		sysShare: 0.95, sysItems: 3, tagItems: 3, loneDrop: 0.05, loneHold: 0.02, judgeShare: 0.05, driftIncrease: 0.20, jumpMin: 0.02}
	if r := c.SystematicMiss; r != nil {
		s.sysOn, s.sysShare, s.sysItems = on(r.Enabled), f64(r.MinShare, s.sysShare), intOr(r.MinItems, s.sysItems)
	}
	if r := c.TagFailure; r != nil {
		s.tagOn, s.tagItems = on(r.Enabled), intOr(r.MinItems, s.tagItems)
	}
	if r := c.LoneDrop; r != nil {
		s.loneOn, s.loneDrop, s.loneHold = on(r.Enabled), f64(r.MinDrop, s.loneDrop), f64(r.Hold, s.loneHold)
	}
	if r := c.NormalizationMiss; r != nil {
		s.normOn = on(r.Enabled)
	}
	if r := c.JudgeErrors; r != nil {
		s.judgeOn, s.judgeShare = on(r.Enabled), f64(r.MaxShare, s.judgeShare)
	}
	if r := c.BudgetDrift; r != nil {
		s.driftOn, s.driftIncrease = on(r.Enabled), f64(r.MaxIncrease, s.driftIncrease)
	}
	if r := c.Jump; r != nil {
		s.jumpOn, s.jumpMin = on(r.Enabled), f64(r.MinRise, s.jumpMin)
	}
	return s
}

// Validate checks the thresholds; base is the YAML path of the block ("$.diagnose").
// It returns the path and message of the first problem.
func (c *Config) Validate() (path, msg string) {
	if c == nil {
		return "", ""
	}
	unit := func(p *float64, at string) (string, string) {
		if p != nil && !(*p >= 0 && *p <= 1) {
			return at, fmt.Sprintf("%s %v; want a fraction in [0, 1]", at, *p)
		}
		return "", ""
	}
	count := func(p *int, at string) (string, string) {
		if p != nil && *p < 1 {
			return at, fmt.Sprintf("%s %d; want 1 or more", at, *p)
		}
		return "", ""
	}
	checks := [][2]string{}
	if r := c.SystematicMiss; r != nil {
		checks = append(checks, pair(unit(r.MinShare, "systematic_miss.min_share")), pair(count(r.MinItems, "systematic_miss.min_items")))
	}
	if r := c.TagFailure; r != nil {
		checks = append(checks, pair(count(r.MinItems, "tag_failure.min_items")))
	}
	if r := c.LoneDrop; r != nil {
		checks = append(checks, pair(unit(r.MinDrop, "lone_drop.min_drop")), pair(unit(r.Hold, "lone_drop.hold")))
	}
	if r := c.JudgeErrors; r != nil {
		checks = append(checks, pair(unit(r.MaxShare, "judge_errors.max_share")))
	}
	if r := c.BudgetDrift; r != nil && r.MaxIncrease != nil && !(*r.MaxIncrease >= 0 && *r.MaxIncrease < 1e6) {
		checks = append(checks, [2]string{"budget_drift.max_increase", fmt.Sprintf("budget_drift.max_increase %v; want a fraction ≥ 0 (0.2 = +20 %%)", *r.MaxIncrease)})
	}
	if r := c.Jump; r != nil {
		checks = append(checks, pair(unit(r.MinRise, "jump.min_rise")))
	}
	for _, ch := range checks {
		if ch[0] != "" {
			return ch[0], ch[1]
		}
	}
	return "", ""
}

func pair(a, b string) [2]string { return [2]string{a, b} }
