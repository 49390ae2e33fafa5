package github

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v60/github"
)

// PullRequest is what the action needs to know about a pull request.
type PullRequest struct {
	Number   int
	State    string // open, closed
	HTMLURL  string
	HeadSHA  string
	BaseSHA  string
	BaseRef  string
	HeadRepo string // owner/name; "" when the head repository was deleted
	BaseRepo string // owner/name
	Labels   []string
}

// FromFork reports whether the pull request comes from another repository.
func (p PullRequest) FromFork() bool { return IsFork(p.HeadRepo, p.BaseRepo) }

// IsFork reports whether a pull request with head repository headRepo and base
// repository baseRepo (both "owner/name") comes from a fork. A deleted head
// repository ("") counts as a fork.
func IsFork(headRepo, baseRepo string) bool {
	return headRepo == "" || !strings.EqualFold(headRepo, baseRepo)
}

// PullRequest reads pull request n. A missing one is an error matching ErrNotFound
// that says so.
func (c *Client) PullRequest(ctx context.Context, owner, repo string, n int) (PullRequest, error) {
	pr, _, err := c.gh.PullRequests.Get(ctx, owner, repo, n)
	if err != nil {
		if status(err) == http.StatusNotFound {
			return PullRequest{}, fmt.Errorf("pull request %s/%s#%d not found (or the token cannot read it): %w", owner, repo, n, ErrNotFound)
		}
		return PullRequest{}, classify(err, fmt.Sprintf("get pull request %s/%s#%d", owner, repo, n))
	}
	return pullRequestOf(pr), nil
}

// pullRequestOf keeps what the action needs of a pull request.
func pullRequestOf(pr *gh.PullRequest) PullRequest {
	out := PullRequest{
		Number:   pr.GetNumber(),
		State:    pr.GetState(),
		HTMLURL:  pr.GetHTMLURL(),
		HeadSHA:  pr.GetHead().GetSHA(),
		BaseSHA:  pr.GetBase().GetSHA(),
		BaseRef:  pr.GetBase().GetRef(),
		HeadRepo: pr.GetHead().GetRepo().GetFullName(),
		BaseRepo: pr.GetBase().GetRepo().GetFullName(),
	}
	for _, l := range pr.Labels {
		out.Labels = append(out.Labels, l.GetName())
	}
	return out
}

// ChangedFiles lists the paths pull request n adds, changes, removes or renames (both
// names of a rename), over all pages. GitHub lists at most 3000 files.
func (c *Client) ChangedFiles(ctx context.Context, owner, repo string, n int) ([]string, error) {
	files, err := listAll(ctx, func(ctx context.Context, o gh.ListOptions) ([]*gh.CommitFile, *gh.Response, error) {
		return c.gh.PullRequests.ListFiles(ctx, owner, repo, n, &o)
	})
	if err != nil {
		return nil, classify(err, fmt.Sprintf("list files of %s/%s#%d", owner, repo, n))
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.GetFilename())
		if prev := f.GetPreviousFilename(); prev != "" {
			paths = append(paths, prev)
		}
	}
	return paths, nil
}
