package github

// Conclusion is a finished check run's conclusion. It always reflects the verdict; the
// action's fail-on input only decides the step's exit code.
type Conclusion string

// Conclusions evalgate reports.
const (
	ConclusionSuccess Conclusion = "success" // pass, or pass with soft warnings
	ConclusionFailure Conclusion = "failure" // a hard or regression gate failed
	ConclusionNeutral Conclusion = "neutral" // a regression a maintainer accepted
)

// Level is an annotation's severity, as the Checks API names it.
type Level string

// Annotation levels.
const (
	LevelNotice  Level = "notice"
	LevelWarning Level = "warning"
	LevelFailure Level = "failure"
)

// Annotation points at lines of a file in the repository, e.g. the suite lines of an
// item that newly fails.
type Annotation struct {
	Path      string // relative to the repository root, with forward slashes
	StartLine int    // 1-based; 0 means 1
	EndLine   int    // 0 means StartLine
	Level     Level  // "" means LevelWarning
	Title     string
	Message   string
}

// CommentMode says when the sticky comment is written.
type CommentMode string

// Comment modes, as the action's comment input spells them.
const (
	CommentAlways    CommentMode = "always"     // create or update on every run
	CommentOnChange  CommentMode = "on-change"  // create only when the result differs from the baseline
	CommentOnFailure CommentMode = "on-failure" // create only when the verdict is not a clean pass
	CommentNever     CommentMode = "never"      // never comment
)

// Wants reports whether a comment should be written in mode m. exists says a sticky
// comment is already on the pull request: it is then always kept current (except in
// CommentNever), so that it never shows a stale failure. changed and failing describe
// the new result (see Publication).
func (m CommentMode) Wants(exists, changed, failing bool) bool {
	switch m {
	case CommentNever:
		return false
	case CommentOnChange:
		return exists || changed
	case CommentOnFailure:
		return exists || failing
	}
	return true
}

// Publication is everything the action publishes for one suite on one commit.
type Publication struct {
	Owner, Repo string
	// PRNumber is the pull request to comment on; 0 means no comment (a push).
	PRNumber int
	// HeadSHA is the commit the check run goes to: pull_request.head.sha for a pull
	// request, never the merge commit in GITHUB_SHA.
	HeadSHA string
	// FromFork marks a pull request from a fork: its token is read-only, so Publish
	// returns ErrReadOnly without trying to write.
	FromFork bool

	// Marker is the hidden HTML comment that finds this suite's sticky comment, e.g.
	// "<!-- evalgate:suite=tutor-capstone -->". The body starts with it.
	Marker string
	// CommentAuthor is the login whose comments are this run's own; "" means the
	// token's identity (see Client.Identity). No one else's comment is ever touched.
	CommentAuthor string
	// RunID and RunAttempt (GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT) order racing runs: the
	// sticky comment ends with the later run's body. They also make the check run's
	// external id. 0 means unknown (outside Actions).
	RunID       int64
	RunAttempt  int
	CommentBody string // markdown
	CommentMode CommentMode
	Changed     bool // the result differs from the baseline (for CommentOnChange)
	Failing     bool // the verdict is not a clean pass (for CommentOnFailure)

	// CheckName names the check run, one per suite. Empty means no check run.
	CheckName string
	// CheckExternalID is the check run's external id, unique to this run attempt and
	// suite, by which a run whose create answer was lost is found again; "" means none.
	CheckExternalID string
	// CheckRunID is a check run already started with StartCheckRun; 0 means Publish
	// starts one.
	CheckRunID   int64
	Conclusion   Conclusion
	CheckTitle   string
	CheckSummary string // markdown
	CheckText    string // markdown, optional
	Annotations  []Annotation
}
