package ghaction

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/github"
)

// openPulls is what finding the pull requests that share a head commit needs of GitHub.
type openPulls interface {
	OpenPullRequestsAt(ctx context.Context, owner, repo, sha string) ([]github.PullRequest, error)
}

var _ openPulls = (*github.Client)(nil)

// sharedHeadError is a head commit that other open pull requests into another branch
// share: the check run goes on the commit, so every one of them would show this run's
// verdict, reached under this pull request's base branch's gate.
type sharedHeadError struct {
	sha    string
	base   string // this pull request's base branch
	others []github.PullRequest
	err    error // the listing failed: whether others share it cannot be told (not unwrapped: shown as one line)
}

func (e *sharedHeadError) Error() string {
	if e.err != nil {
		return fmt.Sprintf("cannot tell whether pull requests into other branches share commit %s (a pass here would show on them too): %v", short(e.sha), e.err)
	}
	var names []string
	for _, pr := range e.others {
		names = append(names, fmt.Sprintf("#%d into %s", pr.Number, pr.BaseRef))
	}
	return fmt.Sprintf("commit %s is also the head of pull request %s: a check run belongs to a commit, not to one pull request, "+
		"so a pass judged under the gate of %s would show on the others too, whose base branches may have a stricter gate; "+
		"evalgate does not pass a commit that pull requests into different branches share (close the others, or push a new commit to one of them)",
		short(e.sha), strings.Join(names, ", "), e.base)
}

// checkSharedHead refuses, in a privileged run (pull_request_target, workflow_run, where
// a fork's pull request gets a check run), a head commit that an open pull request into
// another base branch shares: a fork could otherwise open a second pull request from
// the same commit into a branch with a weaker gate (or none) and have its pass shown on
// the first. It runs once the verdict is in, just before publishing, and only for a
// verdict that would not fail. A listing that fails fails the check too (exit 3): a pass
// is only published once no such pull request is known.
func (r *runner) checkSharedHead(ctx context.Context, gh openPulls, headSHA string) error {
	if !r.ev.Privileged() || !r.ev.IsPR() || gh == nil || headSHA == "" {
		return nil
	}
	bctx, done := r.budget.context(ctx, stretchRead)
	defer done()
	prs, err := gh.OpenPullRequestsAt(bctx, r.owner, r.repo, headSHA)
	if err != nil {
		return &sharedHeadError{sha: headSHA, err: r.budget.explain(err)}
	}
	var others []github.PullRequest
	for _, pr := range prs {
		if pr.Number != r.ev.PRNumber && pr.BaseRef != r.ev.BaseRef {
			others = append(others, pr)
		}
	}
	if len(others) == 0 {
		return nil
	}
	return &sharedHeadError{sha: headSHA, base: r.ev.BaseRef, others: others}
}

// CouldNotRun marks a failed listing as a failure to run (exit 3), not bad input.
func (e *sharedHeadError) CouldNotRun() bool { return e.err != nil }
