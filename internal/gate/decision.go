package gate

import (
	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/stats"
)

// Regression decision methods, the values of `regression.method`.
const (
	// MethodEvidence (the default) weighs each item by what the baseline's runs know
	// about it: a stable item that now fails is evidence, a flip of an item that already
	// flipped is noise. It blocks when the estimated drop exceeds max_drop and a
	// one-sided test at 5 % rejects "no drop"; when only the first holds the verdict is
	// inconclusive. Works with any number of candidate runs, 1 included, and with
	// unequal run counts per item. stats.EvidenceAccumulator documents the model.
	MethodEvidence = "evidence"
	// MethodPlain blocks when the observed mean drops by more than max_drop: seed 000's
	// literal rule. It reads the noise of flaky items as regression on small suites.
	MethodPlain = "plain"
	// MethodSignificance blocks when the observed drop exceeds max_drop and its 95 %
	// interval lies wholly below 0; over max_drop but not significant is inconclusive.
	MethodSignificance = "significance"
	// MethodStable is the deprecated name of MethodEvidence; a config that names it
	// gets MethodEvidence and a notice.
	MethodStable = "stable"
)

// Methods lists the accepted `regression.method` values.
var Methods = []string{MethodEvidence, MethodPlain, MethodSignificance, MethodStable}

// Alpha is the level of the one-sided test "no drop" of MethodEvidence and
// MethodSignificance.
const Alpha = 0.05

// PowerTarget is the power at which ResolvingPower states the smallest detectable drop.
const PowerTarget = 0.80

// RegressionDecision is the regression gate's decision on the score (or on one
// dimension), with the figure that decided it.
type RegressionDecision struct {
	// Gate is the gate's name: "regression", or "regression: <dimension>".
	Gate string `json:"gate"`
	// Method is the method that decided; RequestedMethod the configured one when it
	// differs (the deprecated "stable"), with Notice saying so.
	Method          string `json:"method"`
	RequestedMethod string `json:"requested_method,omitempty"`
	Notice          string `json:"notice,omitempty"`
	// Mode is absolute (points of the 0–1 score) or relative (a fraction of the
	// baseline); Unit is what the mode prints: "pts" or "%".
	Mode string `json:"mode"`
	Unit string `json:"unit"`
	// Statistic names the figure that decided: "estimated drop" (evidence) or "drop"
	// (plain, significance). Value is that figure and Threshold is max_drop, both in
	// the mode's unit as fractions (0.031 = 3.1 pts or 3.1 %). Interval is the 95 %
	// interval of the figure.
	Statistic string         `json:"statistic"`
	Value     float64        `json:"value"`
	Threshold float64        `json:"threshold"`
	Interval  stats.Interval `json:"interval"`
	// PValue is the one-sided p-value of "no drop" (absent for plain, which has no
	// test); Alpha the test's level.
	PValue *float64 `json:"p_value,omitempty"`
	Alpha  float64  `json:"alpha"`
	// Exceeded: Value > Threshold (after rounding to 1e-9). Rejects: the test rejects
	// "no drop" (always true for plain).
	Exceeded bool `json:"exceeded"`
	// Observed is the observed drop of the mean (−Δ) in the mode's unit: the figure
	// itself for plain and significance, printed beside the estimate for evidence. A
	// decision is never pass when both it and Value exceed Threshold.
	Observed float64 `json:"observed"`
	Rejects  bool    `json:"rejects"`
	// ItemRejects: the items alone reject "no drop" (evidence method: the test without
	// the run-level guard, or the re-runs' replication test when there are re-runs)
	// where the test with the guard does not. A drop whose size may be over max_drop
	// is then inconclusive, not a pass.
	ItemRejects bool `json:"item_rejects,omitempty"`
	// Unsure marks a pass the items alone put in doubt (evidence method): their
	// p-value (stats.EvidenceResult.PItem) under UnsureP while the estimate's interval
	// reaches over max_drop. It stands as a pass; with settle, its Recheck items are
	// re-run once first, and the look after that round decides.
	Unsure bool `json:"unsure,omitempty"`
	// ThinRuns marks an inconclusive result that would block but for thin runs
	// (evidence method, stats.EvidenceResult.PThin): a first look whose run-level spread
	// is known to fewer than 4 degrees of freedom, where a candidate run bad as a whole,
	// within what the baseline's runs allow (with no runs to compare, one baseline run
	// and one candidate run: within what runs that spread as their items predict could
	// hide, stats.UnmeasuredDF), could explain the drop.
	// Settle's re-runs, or more runs of the pull request, decide.
	ThinRuns bool `json:"thin_runs,omitempty"`
	// FewRunDF marks an inconclusive result the items alone would block (ItemRejects),
	// held back by a run-level guard whose spread is known to fewer than FewRunDF
	// degrees of freedom (stats.EvidenceResult.DF): too few runs to tell the drop from
	// one bad run. Over max_drop, it reads as "on too few runs", as ThinRuns does; more
	// runs (settle's re-runs, the suite's history, runs per pull request) decide.
	FewRunDF bool `json:"few_run_df,omitempty"`
	// Unreplicated marks a fail on a first look over thin runs (evidence method,
	// stats.EvidenceResult.PThin under the level): the drop is beyond what the
	// baseline's runs allow a bad run, but those runs know the spread to only 2 degrees
	// of freedom (or not at all: one baseline run), and three runs with no bad day
	// among them are common. It stands as a
	// fail; with settle, its Evidence is re-run once first and the look after that round
	// decides: a real break fails again, a candidate run that was bad as a whole does
	// not repeat.
	Unreplicated bool `json:"unreplicated,omitempty"`
	// Recheck are the items that pulled toward a drop in an Unsure pass, strongest
	// first: its settle round re-runs them (settle.RerunEvidence).
	Recheck []baseline.EvidenceItem `json:"-"`
	// Outcome is the method's finding before the gate's level and any acceptance:
	// pass, inconclusive or fail.
	Outcome Status `json:"outcome"`
	// DecidedBy says in one line what decided, with the value, the threshold and the
	// evidence: "decided by estimated drop 3.1 pts > 2.0 pts (…)".
	DecidedBy string `json:"decided_by"`
	// Evidence are the items that carried the decision, strongest first (evidence
	// method; at most baseline.EvidenceTop, each at least MinEvidenceZ below its
	// prediction).
	Evidence []baseline.EvidenceItem `json:"evidence,omitempty"`
	// RerunCommand re-runs the evidence items, to settle an inconclusive result.
	RerunCommand string `json:"rerun_command,omitempty"`
	// RerunHint, when no command can re-run the evidence items (the config has no
	// `run:` block or `rerun:` command for its results), says what to do instead.
	RerunHint string `json:"rerun_hint,omitempty"`
	// Power is the suite's resolving power (score decision only).
	Power *ResolvingPower `json:"resolving_power,omitempty"`
	// Dimensions are the per-dimension regression gates (score decision only).
	Dimensions []RegressionDecision `json:"dimensions,omitempty"`
	// Judge is what the judges' measured noise did to the decision (judgenoise.go);
	// nil when the baseline has no judge reliability measurement.
	Judge *JudgeNoise `json:"judge_noise,omitempty"`
}

// ResolvingPower is the smallest true drop the default method detects with 80 %
// power at its 5 % level on this baseline, for the candidate's number of runs.
type ResolvingPower struct {
	// Runs and Items are the candidate runs and compared items it was computed for.
	Runs  int `json:"runs"`
	Items int `json:"items"`
	// Detectable is the drop, in the mode's unit as a fraction (0.044 = 4.4 pts).
	Detectable float64 `json:"detectable_drop"`
	// Enough: Detectable ≤ max_drop.
	Enough bool `json:"enough"`
	// RunsNeeded and ItemsNeeded are what would bring Detectable under max_drop: runs
	// per pull request at this suite size (0 when more runs cannot, because the
	// baseline's own uncertainty dominates), or items at this number of runs.
	RunsNeeded  int `json:"runs_needed,omitempty"`
	ItemsNeeded int `json:"items_needed,omitempty"`
	// Text is the sentence the report prints.
	Text string `json:"text"`
}
