package github

import (
	"context"
	"fmt"
	"strings"

	gh "github.com/google/go-github/v60/github"
)

// FindPullRequest finds the open pull request into owner/repo whose head is branch
// headBranch of repository headRepo ("owner/name", a fork or owner/repo itself) at
// headSHA: what a workflow_run event triggered by a fork's pull request does not name
// (its pull_requests list is empty for forks). It lists the pull requests with that
// head (https://docs.github.com/rest/pulls/pulls#list-pull-requests) and keeps the one
// at headSHA; when none is at headSHA (the branch moved on since) and exactly one is
// open, that one. ok is false when there is none.
func (c *Client) FindPullRequest(ctx context.Context, owner, repo, headRepo, headBranch, headSHA string) (PullRequest, bool, error) {
	headOwner, _, _ := strings.Cut(headRepo, "/")
	op := fmt.Sprintf("find the pull request from %s:%s into %s/%s", headRepo, headBranch, owner, repo)
	prs, err := listAll(ctx, func(ctx context.Context, o gh.ListOptions) ([]*gh.PullRequest, *gh.Response, error) {
		return c.gh.PullRequests.List(ctx, owner, repo, &gh.PullRequestListOptions{State: "open", Head: headOwner + ":" + headBranch, ListOptions: o})
	})
	if err != nil {
		return PullRequest{}, false, classify(err, op)
	}
	var match []*gh.PullRequest
	for _, pr := range prs {
		if !strings.EqualFold(pr.GetHead().GetRepo().GetFullName(), headRepo) && pr.GetHead().GetRepo() != nil {
			continue
		}
		if pr.GetHead().GetSHA() == headSHA {
			return pullRequestOf(pr), true, nil
		}
		match = append(match, pr)
	}
	if len(match) == 1 {
		return pullRequestOf(match[0]), true, nil
	}
	return PullRequest{}, false, nil
}

// OpenPullRequestsAt lists the open pull requests into owner/repo whose head is commit
// sha, from any repository. A check run belongs to a commit, not to a pull request, so
// every one of them shows the check runs made for sha. It lists all open pull requests
// (https://docs.github.com/rest/pulls/pulls#list-pull-requests): GitHub's list by
// commit leaves out those from forks.
func (c *Client) OpenPullRequestsAt(ctx context.Context, owner, repo, sha string) ([]PullRequest, error) {
	prs, err := listAll(ctx, func(ctx context.Context, o gh.ListOptions) ([]*gh.PullRequest, *gh.Response, error) {
		return c.gh.PullRequests.List(ctx, owner, repo, &gh.PullRequestListOptions{State: "open", ListOptions: o})
	})
	if err != nil {
		return nil, classify(err, fmt.Sprintf("list the open pull requests of %s/%s", owner, repo))
	}
	var out []PullRequest
	for _, pr := range prs {
		if pr.GetHead().GetSHA() == sha {
			out = append(out, pullRequestOf(pr))
		}
	}
	return out, nil
}
