// Package diagnose reads a scored run and its comparison for the patterns a breakdown
// exists to show, so a reader knows where the debt is without reading outputs one by
// one: a dimension missing across items, a tag failing one dimension, one dimension
// falling alone, a normalization miss, judge parse errors, latency or token budgets
// drifting, and a jump up beyond the suite's noise. Each pattern is a small named rule;
// a rule that does not fire says nothing.
package diagnose

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/rubric"
)

// Rule names, as they appear in findings and under `diagnose:` in the config.
const (
	RuleSystematicMiss    = "systematic_miss"
	RuleTagFailure        = "tag_failure"
	RuleLoneDrop          = "lone_drop"
	RuleNormalizationMiss = "normalization_miss"
	RuleJudgeErrors       = "judge_errors"
	RuleBudgetDrift       = "budget_drift"
	RuleJump              = "jump"
)

// MaxNamedItems caps the item ids a finding names.
const MaxNamedItems = 5

// Finding is one diagnosis in one sentence.
type Finding struct {
	Rule      string `json:"rule"`
	Message   string `json:"message"` // plain text; `backticks` mark names
	Dimension string `json:"dimension,omitempty"`
	Tag       string `json:"tag,omitempty"`
	// Items are the items the finding names (at most MaxNamedItems), with their suite
	// lines, so a check run can annotate them.
	Items []ItemRef `json:"items,omitempty"`
}

// ItemRef names one suite item.
type ItemRef struct {
	ID   string `json:"id"`
	Line int    `json:"line,omitempty"`
}

// Input is what the rules read.
type Input struct {
	Scored *rubric.Scored
	// Comparison is the run against the baseline; nil when there is none (the rules
	// that need it stay silent).
	Comparison *baseline.Comparison
	// BaselineMetrics are the baseline's run metrics (latency, tokens); nil when none.
	BaselineMetrics map[string]float64
	// BaselineRuns are the baseline's per-run values of a metric (latency percentiles),
	// one per run: its run-to-run spread, inside which a drift rule stays silent.
	BaselineRuns map[string][]float64
	// Noise decides whether a change is beyond the suite's noise; nil: the verdict's
	// interval (RegressionNoise).
	Noise NoiseModel
	// Outputs is what the rules read of the outputs, gathered while the suite was
	// scored (rubric.ScoreOptions.FirstSample = Outputs.Observe); nil: read from the
	// samples the scoring kept.
	Outputs *Outputs
	facts   *itemFacts
}

// Run applies every enabled rule in a fixed order and returns what fired.
func Run(cfg *Config, in Input) []Finding {
	c := cfg.withDefaults()
	if in.Scored == nil {
		return nil
	}
	if in.Noise == nil {
		in.Noise = RegressionNoise{}
	}
	in.facts = newItemFacts(in.Scored)
	if in.Outputs == nil {
		// The scoring kept every sample: read the first of each item now. The scored
		// suite is an index, without the items' expected answers, so the normalization
		// rule, which needs them, has nothing to say: a check observes while scoring.
		in.Outputs = NewOutputs(in.Scored.System)
		for i, it := range in.Scored.Suite.All() {
			if sm := firstScoredSample(in.Scored, i); sm != nil {
				in.Outputs.Observe(i, it, sm)
			}
		}
	}
	shared, covered := sharedCause(c, in)
	out := shared
	// Unreadable judge replies are a shared cause too: the dimensions they take down
	// are named once, by the judge-error finding.
	judged, judgeCovered := judgeErrors(c, in)
	for d, ok := range judgeCovered {
		covered[d] = covered[d] || ok
	}
	sys := systematicMiss(c, in, covered)
	out = append(out, sys...)
	out = append(out, tagFailure(c, in, sys, covered)...)
	out = append(out, loneDrop(c, in)...)
	out = append(out, normalizationMiss(c, in)...)
	out = append(out, judged...)
	out = append(out, budgetDrift(c, in)...)
	out = append(out, jump(c, in)...)
	return out
}

// code marks a name from the data as code; a backtick inside would end the span early.
func code(s string) string { return "`" + strings.ReplaceAll(clip(s, 60), "`", "'") + "`" }

func pts(x float64) string { return fmt.Sprintf("%+.1f pts", 100*x) }

func refs(in Input, idx []int) []ItemRef {
	var out []ItemRef
	for _, i := range idx {
		if len(out) == MaxNamedItems {
			break
		}
		s := in.Scored.Suite
		out = append(out, ItemRef{ID: s.ID(i), Line: s.Line(i)})
	}
	return out
}

// scoredItem reports whether an item has a score to read (not missing in every run,
// not pending).
func scoredItem(is *rubric.ItemScore) bool {
	return !is.Pending && is.Missing < is.Runs
}
