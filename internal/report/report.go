// Package report is the scored run as people and programs read it: the Report type
// (seed 000's per-item keys, seed 001's per-sample fields and run metadata, both version
// strings, the comparison, the gates and the verdict) and its renderers.
package report

import (
	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/diagnose"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/history"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/settle"
)

// SchemaVersion is the version of the JSON report format (schema: report.schema.json).
// Version 2 added the typed verdict (inconclusive, blocks, decided_by) and the
// regression decision; from here on changes are additive only: new fields, never
// renamed or removed ones.
const SchemaVersion = 2

// Report is one evalgate check: scores, comparison, gates and verdict.
type Report struct {
	SchemaVersion int    `json:"schema_version"`
	Suite         string `json:"suite"`
	ScoringSystem string `json:"scoringSystem"`
	GradingSystem string `json:"gradingSystem"`
	// Notices are what a reader must see first, at the top of every format, one line
	// each in NoticeSlot order (notice.go); add one with AddNotice. The JSON holds
	// their texts.
	Notices    []Notice `json:"notices,omitempty"`
	SuiteHash  string   `json:"suite_hash"`
	RubricHash string   `json:"rubric_hash"`
	Metadata   Metadata `json:"metadata"`
	Summary    Summary  `json:"summary"`
	// Cost is what the check's model calls cost (cost.go); absent when nothing recorded
	// tokens and no judge called a model.
	Cost *Cost `json:"cost,omitempty"`
	// BudgetCut says, per results file, that its run was cut by its budget (the note
	// `evalgate run` leaves beside the file): its missing items were never run.
	BudgetCut  []string             `json:"budget_cut,omitempty"`
	Dimensions []Dimension          `json:"dimensions"`
	Runs       []Run                `json:"runs"`
	Items      []Item               `json:"items"`
	Comparison *baseline.Comparison `json:"comparison,omitempty"`
	Gates      []gate.Result        `json:"gates"`
	Grade      *gate.GradeResult    `json:"grade,omitempty"`
	// Regression is the regression gate's decision: the figure that decided, its
	// threshold and interval, the evidence items, the suite's resolving power. Absent
	// without a baseline.
	Regression *gate.RegressionDecision `json:"regression,omitempty"`
	// Verdict is gate's verdict: status (pass, warn, inconclusive, fail, accepted),
	// whether it blocks, the reason and the line that decided.
	Verdict gate.Verdict `json:"verdict"`
	// Findings are the diagnosis of the breakdown (internal/diagnose), first in every
	// format; empty when no rule fired.
	Findings []diagnose.Finding `json:"findings,omitempty"`
	// ShardState, in a shard's report (score --shard) or a merged one, is the state
	// `evalgate merge` and `check --report` read.
	ShardState *ShardState `json:"shard_state,omitempty"`
	// Settle is what check --settle did: each round's re-runs and the figure after it,
	// and what they cost (internal/settle); absent without --settle.
	Settle *settle.Result `json:"settle,omitempty"`
	// Proposed is the gate a pull request brings where it differs from its base
	// commit's (the action): scored beside it, shown first.
	Proposed *ProposedGate `json:"proposed_gate,omitempty"`

	// Context for renderers, not serialized.
	SuiteFile string         `json:"-"`
	Command   string         `json:"-"` // the command that reproduces the report locally
	Mode      string         `json:"-"` // regression mode, absolute or relative: the unit deltas print in
	Scored    *rubric.Scored `json:"-"`
	// History is the suite's score history (baselines/<suite>.history.jsonl), oldest
	// first; the comment shows its last releases and the HTML report draws it.
	History []history.Record `json:"-"`
	// stream, when set, holds every item's JSON; Items then holds the items the
	// renderers list (all of a small suite, the worst failing ones of a large one).
	stream *ItemStream
	// jsonOnly: built for the JSON writer only (Options.JSONOnly); Items is empty.
	jsonOnly bool
}

// Close releases a streamed report's temporary files.
func (r *Report) Close() error {
	if r.stream == nil {
		return nil
	}
	return r.stream.Close()
}

// Metadata is seed 001 §4.3's required run metadata.
type Metadata struct {
	RunID                                string           `json:"run_id"`
	TimestampUTC                         string           `json:"timestamp_utc"`
	DatasetID                            string           `json:"dataset_id"`
	DatasetVersionOrHash                 string           `json:"dataset_version_or_hash"`
	ModelID                              string           `json:"model_id"`
	ModelVersion                         string           `json:"model_version"`
	EvaluatorModelID                     string           `json:"evaluator_model_id"`
	EvaluatorModelVersion                string           `json:"evaluator_model_version"`
	PromptTemplateID                     string           `json:"prompt_template_id"`
	PromptTemplateVersionOrHash          string           `json:"prompt_template_version_or_hash"`
	EvaluatorPromptTemplateVersionOrHash string           `json:"evaluator_prompt_template_version_or_hash"`
	GenerationParams                     GenerationParams `json:"generation_params"`
	CodeVersion                          string           `json:"code_version"`
	Environment                          string           `json:"environment"`
	EvalgateVersion                      string           `json:"evalgate_version"`
	ResultsFiles                         []string         `json:"results_files"`
}

// GenerationParams are the generation settings of seed 001 §4.1.
type GenerationParams struct {
	Temperature *float64 `json:"temperature"`
	TopP        *float64 `json:"top_p"`
	MaxTokens   *int     `json:"max_tokens"`
	Seed        *int     `json:"seed"`
}

// Summary is the run summary: mean over runs with the spread, pass rate, metrics.
type Summary struct {
	Items       int      `json:"items"`
	Runs        int      `json:"runs"`
	Mean        float64  `json:"mean"`
	Std         float64  `json:"std"` // sample std of the per-run mean scores
	PassRate    float64  `json:"pass_rate"`
	Passed      int      `json:"passed"`
	Missing     []string `json:"missing_items"`
	Pending     []string `json:"pending_items,omitempty"`
	JudgeErrors int      `json:"judge_errors"`
	// Judges is each judge\'s spend, kept apart from the system under test\'s tokens.
	Judges     []JudgeUsage       `json:"judges,omitempty"`
	Metrics    map[string]float64 `json:"metrics"`
	MetricsStd map[string]float64 `json:"metrics_std,omitempty"`
	// Estimates names the metrics estimated from a sketch rather than computed exactly
	// (latency percentiles of runs past stats.ExactQuantilesUpTo latencies), with the
	// error bound; absent when every figure is exact.
	Estimates map[string]rubric.Estimate `json:"estimates,omitempty"`
}

// Dimension is one rubric axis summarized over the run.
type Dimension struct {
	Name     string   `json:"name"`
	Weight   float64  `json:"weight"`
	Scorer   string   `json:"scorer"`
	Scale    string   `json:"scale"`
	Mean     float64  `json:"mean"`               // mean normalized value
	RawMean  *float64 `json:"raw_mean,omitempty"` // mean raw value
	Failures float64  `json:"failures"`
	// Items is how many items the dimension applies to (a mean over runs), when it is
	// n/a on some: Mean and Failures are over those. NA: it applies to none.
	Items *float64 `json:"applicable_items,omitempty"`
	NA    bool     `json:"na,omitempty"`
}

// Run is one results file's aggregates (seed 001 §4.4).
type Run struct {
	File     string             `json:"file"`
	Mean     float64            `json:"mean_score"`
	PassRate float64            `json:"pass_rate"`
	Missing  []string           `json:"missing_items"`
	Metrics  map[string]float64 `json:"metrics"`
	// Estimates names the run's metrics estimated from a sketch (Summary.Estimates).
	Estimates map[string]rubric.Estimate `json:"estimates,omitempty"`
}

// JudgeUsage is one judge's calls and tokens over the run.
type JudgeUsage struct {
	Name             string `json:"name"`
	Model            string `json:"model"`
	Requests         int    `json:"requests"`
	Calls            int    `json:"calls"`
	CacheHits        int    `json:"cache_hits"`
	ParseErrors      int    `json:"parse_errors"`
	Errors           int    `json:"errors"`
	PromptTokens     int64  `json:"prompt_tokens"`
	CompletionTokens int64  `json:"completion_tokens"`
}
