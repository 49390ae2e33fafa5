package ghaction

import (
	"errors"
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/gate"
)

// BaseError is an error in a file read as of the pull request's base commit: the config
// or the baseline the gate is read from. The check callback wraps such errors in it, so
// that the job summary can say the file must be fixed on the base branch.
type BaseError struct {
	Path string // relative to the repository root
	Err  error
}

func (e *BaseError) Error() string {
	return fmt.Sprintf("%s as of the base commit: %v", e.Path, e.Err)
}

func (e *BaseError) Unwrap() error { return e.Err }

// readError is a GitHub API read of the base commit that failed (not a 404: that means
// the file is not there).
type readError struct {
	path, sha string
	which     string // "the base commit", "the head commit"
	err       error
}

func (e *readError) Error() string {
	return fmt.Sprintf("reading %s at %s %s through the GitHub API: %v", e.path, e.which, e.sha, e.err)
}

func (e *readError) Unwrap() error { return e.err }

// CouldNotRun marks a failed read as a failure to run (exit 3), not bad input.
func (e *readError) CouldNotRun() bool { return true }

// eventError is a workflow context or event payload that cannot be read.
type eventError struct{ err error }

func (e *eventError) Error() string { return e.err.Error() }
func (e *eventError) Unwrap() error { return e.err }

// stop ends a run that could not judge anything: the errors as ::error lines, a job
// summary that says what went wrong and what to do, and the outputs that can still be
// set (verdict: error, failed-channels). It returns the error's exit code
// (gate.ErrorExitCode).
func (c *commands) stop(err error, budget *timeBudget) int {
	reportErrors(c.a, err)
	var b strings.Builder
	b.WriteString("### ❌ evalgate could not judge this run\n\n")
	b.WriteString("**What went wrong:**\n\n" + quoteError(err) + "\n")
	b.WriteString("**What to do:** " + remedy(err, budget) + "\n\n")
	code := gate.ErrorExitCode(err)
	fmt.Fprintf(&b, "Nothing was judged, so the step fails (exit code %d) whatever `fail-on` says, and a check run already started concludes `failure`.\n", code)
	c.setOutput("verdict", "error")
	c.addSummary(c.failures.note() + b.String())
	c.setOutput("failed-channels", c.failures.list())
	return code
}

// remedy says what to do about err.
func remedy(err error, budget *timeBudget) string {
	var ie *InputError
	var be *BaseError
	var re *readError
	var ee *eventError
	var she *sharedHeadError
	switch {
	case errors.As(err, &she) && she.err != nil:
		return "re-run this job: a pass is published only once no open pull request into another branch is known to share this commit " +
			"(listing the open pull requests needs `pull-requests: read`, which `pull-requests: write` includes)."
	case errors.As(err, &she):
		return "close the other pull requests from this commit, or push a new commit to this one, then re-run this job: " +
			"each check run is shown on every pull request whose head is its commit."
	case errors.As(err, &be):
		return fmt.Sprintf("`%s` is broken on the base branch. A pull request is judged by the gate already merged, never by its own copy, "+
			"so fix `%s` on the base branch first (`evalgate validate` checks a config locally), then re-run this job.", codeSpan(be.Path), codeSpan(be.Path))
	case errors.As(err, &re):
		s := "evalgate reads the gate and the baseline from the pull request's base commit through the GitHub API, and that read failed; " +
			"a pull request is never judged by its own copy of the gate, so nothing was judged. Re-run the job. "
		if budget != nil && budget.exhausted() {
			return s + "GitHub answered too slowly for the time allowed: raise the `publish-budget` (and `request-timeout`) inputs if that persists."
		}
		return s + "If it fails again, check that the token has `contents: read` and GitHub's status (https://www.githubstatus.com)."
	case errors.As(err, &ie):
		return "fix the inputs named above in the workflow step's `with:` block; [docs/action.md](https://github.com/evalgate/evalgate/blob/main/docs/action.md#inputs) lists every input and its values."
	case errors.As(err, &ee):
		return "run the action from a workflow on `pull_request`, `push`, `release` or `workflow_dispatch`, on GitHub Actions (it reads `GITHUB_EVENT_PATH` and the other `GITHUB_*` variables)."
	}
	return "run `evalgate check` locally with the same config and results files to see the same error; fix the file and line it names, and push."
}
