package ghaction

import (
	"context"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
)

// CheckInput is what the check callback gets. Paths are absolute.
type CheckInput struct {
	// ConfigPath is the config in the workspace (the pull request's head, for a
	// pull_request event): the gate when the event is not a pull request's.
	ConfigPath string
	// Root is the workspace (the repository's root in the container), absolute.
	Root string
	// For a pull request, the gate is the base commit's, all of it: BaseConfig is the
	// repository path of its config at BaseSHA (the path the base commit's own workflow
	// names). Read it and every file it names (the suite, rubric tests, JSON Schemas,
	// judge templates, the judge cache) with ReadBase and ListBase, never from the
	// workspace; only the results are the pull request's. "" when FirstAdoption.
	BaseConfig string
	// HeadConfig is the repository path of the pull request's own config: its
	// definition, scored beside the base commit's as a proposed gate where they
	// differ, and the gate itself on a first adoption. Its files are the workspace's
	// when ReadHead is nil (a pull_request event checks out the pull request), else
	// read at HeadSHA.
	HeadConfig string
	// FirstAdoption: the base commit has no evalgate config at the path its own
	// workflow names, so this pull request adds evalgate and its own gate applies.
	FirstAdoption bool
	// Privileged: the workflow runs with the base repository's secrets
	// (pull_request_target, workflow_run). Never execute a run: or rerun: command then:
	// the pull request may have written it.
	Privileged bool
	// Results are the result files the results input matched, sorted; none means the
	// config's own.
	Results []string
	// Reports, when set, are the JSON reports the report input matched, sorted: gate on
	// them (joined, as `evalgate merge` does) instead of scoring results. Results is then
	// empty.
	Reports []string
	// BaselinePath is the baseline to compare with: for a pull request the baseline
	// input's file as of the base commit, in a temporary file; otherwise the file in the
	// workspace. "" when there is none yet, or when the baseline input is empty (then
	// read the config's baseline with ReadBase).
	BaselinePath string
	// BaselineSource says where BaselinePath came from, e.g. "baselines/tutor.jsonl@f95f852".
	BaselineSource string
	// BaselineAbsent is the baseline input's repository path when the base commit lacks
	// that file: the baseline the gate names is missing (never the config's instead).
	BaselineAbsent string
	// ReadBase reads a file (relative to the repository root) as of the pull request's
	// base commit; github.ErrNotFound when it has none. Nil when not a pull request.
	ReadBase func(ctx context.Context, repoPath string) ([]byte, error)
	// ListBase lists the files under a directory as of the base commit (repository
	// paths); github.ErrNotFound when it has none. Nil when ReadBase is.
	ListBase func(ctx context.Context, repoDir string) ([]string, error)
	// BaseSHA is the commit ReadBase reads at (the pull request's base sha); "" when
	// ReadBase is nil.
	BaseSHA string
	// ReadHead and ListHead read the pull request's head commit (HeadSHA) when the
	// workspace does not hold it (pull_request_target, workflow_run); nil otherwise.
	ReadHead func(ctx context.Context, repoPath string) ([]byte, error)
	ListHead func(ctx context.Context, repoDir string) ([]string, error)
	HeadSHA  string
	// ProtectedChanged lists the files this pull request changes that the gate is read
	// from: the config, the baseline, anything under baselines/. Run already says so at
	// the top of the comment; the callback may show it in the report too.
	ProtectedChanged []string
	// Acceptance is what AcceptLabel says about the head commit. Acceptance.By() is the
	// maintainer who accepted it (write access; this run started by applying the label
	// to the commit, or under workflow_run the label applied after the commit was
	// pushed), or "": pass it to the gate (gate.Inputs), where, when the regression gate
	// is the only one that blocks, the verdict is gate.Accepted. A stale label (on, but
	// not applied in this run's start, or before the push) accepts nothing; Run says so
	// at the top of the comment.
	Acceptance  github.Acceptance
	AcceptLabel string
	// RequireBaseline is the require-baseline input: pass it to the gate
	// (gate.Inputs.RequireBaseline).
	RequireBaseline bool
	// MaxCostUSD is the max-cost-usd input: the judges' max_cost_usd (0: the config's).
	MaxCostUSD float64
	// Settle is the settle input set to auto: an inconclusive verdict re-runs items
	// through the config's `run:` or `rerun:` block, except when Privileged, where the
	// report gives the command for the unprivileged job instead.
	Settle bool
	// ReportDir is where the callback should write the full report (ReportPath).
	ReportDir string
}

// Outcome is what the check callback returns: the finished, rendered result.
type Outcome struct {
	// Suite names the suite; it tells this suite's sticky comment from others'.
	// "" means the check-name input.
	Suite string
	// Verdict is the gate's status and Blocks whether it blocks (gate.Verdict).
	Verdict       gate.Status
	Blocks        bool
	Score         float64
	BaselineScore float64
	Delta         float64 // Score − BaselineScore, in points of the 0–1 score
	HasBaseline   bool
	Grade         string
	// Changed says the result differs from the baseline (delta, dimensions, flipped
	// items); comment: on-change comments only then. No baseline counts as changed.
	Changed bool
	// ReportPath is the full report file (the report-path output): absolute, or
	// relative to the working directory.
	ReportPath string
	// HTMLPath is the self-contained HTML report (the html-path output), beside it.
	HTMLPath string
	// CommentMarkdown is the PR comment and job summary body; Run adds the marker and
	// the accepted-by and changed-gate notices at the top.
	CommentMarkdown string
	// CheckTitle is the one line that matters ("❌ score dropped 4.1 pts"); CheckSummary
	// and CheckText are the check run's markdown.
	CheckTitle   string
	CheckSummary string
	CheckText    string
	// Annotations point at the suite lines of newly failing items; paths relative to
	// the working directory (or absolute in the workspace).
	Annotations []github.Annotation
	// ProposedAccepted: the verdict is the pull request's own (proposed) gate's, which a
	// maintainer accepted with the accept label; the comment says so itself.
	ProposedAccepted bool
	// FailedSoft: a soft gate failed, or the regression gate was inconclusive
	// (gate.SoftFailed): `fail-on: soft` fails the step on it as on a blocking verdict.
	FailedSoft bool
}

// verdict is the outcome's verdict, to ask gate what it means (conclusion, annotation
// level, the step's exit code).
func (o *Outcome) verdict() *gate.Verdict {
	return &gate.Verdict{Status: o.Verdict, Blocks: o.Blocks}
}

// CheckFunc scores, compares, gates and renders: evalgate check.
type CheckFunc func(ctx context.Context, in CheckInput) (*Outcome, error)

// BaselineInput is what the baseline callback gets. Paths are absolute.
type BaselineInput struct {
	ConfigPath string
	Results    []string // sorted; none means the config's own
	// Reports, when set, are the reports the report input matched (a merged report, or
	// every shard's partial report), sorted: build the baseline from them instead of
	// Results.
	Reports []string
	// OutPath is where to write the baseline: the baseline input, or "" for the
	// config's choice.
	OutPath string
	Tag     string // the release tag, when a release triggered the run
	SHA     string // the commit the baseline describes
}

// BaselineOutcome is what the baseline callback returns.
type BaselineOutcome struct {
	Path string // the baseline file written, in the workspace
	// Extra are the other files the baseline command wrote that belong with it (its
	// recorded outputs kept beside it, the baselines index); the refresh commits them too.
	Extra   []string
	Score   float64 // its mean score
	Summary string  // markdown for the job summary and the refresh pull request
}

// BaselineFunc builds a baseline from runs: evalgate baseline.
type BaselineFunc func(ctx context.Context, in BaselineInput) (*BaselineOutcome, error)
