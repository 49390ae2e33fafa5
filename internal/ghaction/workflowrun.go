package ghaction

import (
	"context"
	"fmt"

	"github.com/evalgate/evalgate/internal/github"
)

// pullRequests is what resolving a workflow_run's pull request needs of GitHub.
type pullRequests interface {
	PullRequest(ctx context.Context, owner, repo string, n int) (github.PullRequest, error)
	FindPullRequest(ctx context.Context, owner, repo, headRepo, headBranch, headSHA string) (github.PullRequest, bool, error)
}

var _ pullRequests = (*github.Client)(nil)

// resolveWorkflowRun turns a workflow_run event whose triggering run was a pull
// request's into that pull request's event: its number, base commit and labels from
// the API, and the head sha the triggering run tested (where the check run goes). The
// payload lists the pull request for one from the same repository; a fork's is found by
// its head repository, branch and sha. A workflow_run from anything else (a push) is
// gated like a push of its head sha.
func resolveWorkflowRun(ctx context.Context, gh pullRequests, owner, repo string, ev Event) (Event, error) {
	run := ev.Run
	if run == nil {
		return ev, nil
	}
	ev.HeadSHA = run.HeadSHA
	if !ev.FromPullRequest() {
		return ev, nil
	}
	if gh == nil {
		return ev, fmt.Errorf("workflow_run from a pull request: the github-token input is needed to find the pull request and its base commit")
	}
	n := pickPR(run)
	if n == 0 {
		found, ok, err := gh.FindPullRequest(ctx, owner, repo, run.HeadRepo, run.HeadBranch, run.HeadSHA)
		if err != nil {
			return ev, fmt.Errorf("finding the pull request of the triggering run: %w", err)
		}
		if !ok {
			return ev, fmt.Errorf("the triggering run (%s of %s:%s at %s) belongs to no open pull request into %s/%s",
				run.Event, run.HeadRepo, run.HeadBranch, short(run.HeadSHA), owner, repo)
		}
		n = found.Number
	}
	// The pull request as it is now: its base commit and labels, never the payload's
	// copy (a workflow_run payload's base sha is the one of the producer's start).
	pr, err := gh.PullRequest(ctx, owner, repo, n)
	if err != nil {
		return ev, fmt.Errorf("reading pull request #%d of the triggering run: %w", n, err)
	}
	if pr.BaseSHA == "" {
		return ev, fmt.Errorf("pull request #%d: GitHub gave no base sha", pr.Number)
	}
	ev.PRNumber, ev.BaseSHA, ev.BaseRef, ev.Labels = pr.Number, pr.BaseSHA, pr.BaseRef, pr.Labels
	ev.HeadRepo, ev.BaseRepo = pr.HeadRepo, pr.BaseRepo
	if ev.HeadRepo == "" {
		ev.HeadRepo = run.HeadRepo
	}
	return ev, nil
}

// pickPR is the pull request the payload names for the run's head sha (the first one
// listed when none has it); 0 when it lists none, as for a fork.
func pickPR(run *TriggeringRun) int {
	for _, pr := range run.PRs {
		if pr.HeadSHA == run.HeadSHA {
			return pr.Number
		}
	}
	if len(run.PRs) > 0 {
		return run.PRs[0].Number
	}
	return 0
}
