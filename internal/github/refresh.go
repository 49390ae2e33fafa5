package github

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v60/github"
)

// Refresh is the outcome of OpenRefreshPR.
type Refresh struct {
	// URL and Number name the pull request; empty when nothing changed.
	URL    string
	Number int
	// Created is true when this call opened the pull request, false when it updated
	// the one already open for the branch.
	Created bool
	// Unchanged is true when the base branch already holds content: no pull request.
	Unchanged bool
	// Branch is the branch the files were committed on; set once it is pushed, also
	// when opening the pull request then failed (ErrPRNotPermitted).
	Branch string
}

// ErrPRNotPermitted matches the refusal GitHub gives a workflow's GITHUB_TOKEN that may
// not open pull requests: the repository (or its organization) has not turned on
// "Allow GitHub Actions to create and approve pull requests" (Settings → Actions →
// General → Workflow permissions). It is also an ErrReadOnly.
var ErrPRNotPermitted = errors.New("github: GitHub Actions is not permitted to create pull requests in this repository")

// File is one file a refresh proposes: its path in the repository and its content.
type File struct {
	Path    string
	Content []byte
}

// OpenRefreshPR proposes files (a baseline, and what goes with it: its recorded
// outputs, the baselines index) through a pull request from branch into baseBranch
// (the default branch), idempotently:
//
//   - if baseBranch already holds every file as given, nothing is written (Unchanged);
//   - branch is created at baseBranch's head, or moved there if it exists, so the
//     pull request always starts fresh from the base;
//   - each file that differs is committed on branch through the Contents API;
//   - the pull request already open from branch is updated (title, body), else one is
//     opened. Running it twice never opens a second pull request.
//
// Pull requests opened with a workflow's GITHUB_TOKEN do not trigger workflows; pass a
// Client made with another token for CI to run on them.
func (c *Client) OpenRefreshPR(ctx context.Context, owner, repo, baseBranch, branch string, files []File, title, body string) (Refresh, error) {
	if branch == "" || branch == baseBranch {
		return Refresh{}, fmt.Errorf("refresh branch %q must be set and differ from the base branch %q", branch, baseBranch)
	}
	if len(files) == 0 {
		return Refresh{}, fmt.Errorf("refresh: no file to propose")
	}
	base, _, err := c.gh.Git.GetRef(ctx, owner, repo, "heads/"+baseBranch)
	if err != nil {
		return Refresh{}, classify(err, fmt.Sprintf("read branch %q of %s/%s", baseBranch, owner, repo))
	}
	baseSHA := base.GetObject().GetSHA()

	type change struct {
		file File
		sha  *string // the file's blob on the base branch; nil for a new file
	}
	var changes []change
	for _, f := range files {
		var fileSHA *string
		old, _, _, err := c.gh.Repositories.GetContents(ctx, owner, repo, f.Path, &gh.RepositoryContentGetOptions{Ref: baseSHA})
		switch {
		case err == nil && old != nil:
			if s, err := old.GetContent(); err == nil && bytes.Equal([]byte(s), f.Content) {
				continue
			}
			fileSHA = old.SHA
		case err != nil && status(err) != http.StatusNotFound:
			return Refresh{}, classify(err, fmt.Sprintf("read %s at %s in %s/%s", f.Path, baseBranch, owner, repo))
		}
		changes = append(changes, change{file: f, sha: fileSHA})
	}
	if len(changes) == 0 {
		return Refresh{Unchanged: true}, nil
	}

	if err := c.resetBranch(ctx, owner, repo, branch, baseSHA); err != nil {
		return Refresh{}, err
	}
	for _, ch := range changes {
		_, _, err = c.gh.Repositories.CreateFile(ctx, owner, repo, ch.file.Path, &gh.RepositoryContentFileOptions{
			Message: gh.String(title),
			Content: ch.file.Content,
			SHA:     ch.sha,
			Branch:  gh.String(branch),
		})
		if err != nil {
			return Refresh{}, classify(err, fmt.Sprintf("commit %s on branch %q of %s/%s", ch.file.Path, branch, owner, repo))
		}
	}

	pushed := Refresh{Branch: branch}
	open, _, err := c.gh.PullRequests.List(ctx, owner, repo, &gh.PullRequestListOptions{
		State: "open", Head: owner + ":" + branch, Base: baseBranch,
	})
	if err != nil {
		return pushed, classify(err, fmt.Sprintf("list pull requests from %q in %s/%s", branch, owner, repo))
	}
	if len(open) > 0 {
		pr, _, err := c.gh.PullRequests.Edit(ctx, owner, repo, open[0].GetNumber(), &gh.PullRequest{Title: &title, Body: &body})
		if err != nil {
			return pushed, classify(err, fmt.Sprintf("update pull request %s/%s#%d", owner, repo, open[0].GetNumber()))
		}
		return Refresh{URL: pr.GetHTMLURL(), Number: pr.GetNumber(), Branch: branch}, nil
	}
	pr, _, err := c.gh.PullRequests.Create(ctx, owner, repo, &gh.NewPullRequest{
		Title: &title, Head: &branch, Base: &baseBranch, Body: &body,
		MaintainerCanModify: gh.Bool(true),
	})
	if err != nil {
		op := fmt.Sprintf("open pull request from %q in %s/%s", branch, owner, repo)
		if notPermitted(err) {
			return pushed, fmt.Errorf("%s: %w: %w", op, ErrPRNotPermitted, classify(err, op))
		}
		return pushed, classify(err, op)
	}
	return Refresh{URL: pr.GetHTMLURL(), Number: pr.GetNumber(), Created: true, Branch: branch}, nil
}

// notPermitted reports whether err is GitHub refusing to let Actions open a pull
// request: a 403 saying "GitHub Actions is not permitted to create or approve pull
// requests."
func notPermitted(err error) bool {
	var e *gh.ErrorResponse
	return errors.As(err, &e) && status(err) == http.StatusForbidden &&
		strings.Contains(strings.ToLower(e.Message), "not permitted to create or approve pull requests")
}

// resetBranch points branch at sha, creating it if needed.
func (c *Client) resetBranch(ctx context.Context, owner, repo, branch, sha string) error {
	ref := &gh.Reference{Ref: gh.String("refs/heads/" + branch), Object: &gh.GitObject{SHA: &sha}}
	_, _, err := c.gh.Git.GetRef(ctx, owner, repo, "heads/"+branch)
	switch {
	case err == nil:
		_, _, err = c.gh.Git.UpdateRef(ctx, owner, repo, ref, true)
		return classify(err, fmt.Sprintf("move branch %q of %s/%s to %s", branch, owner, repo, sha))
	case status(err) == http.StatusNotFound:
		_, _, err = c.gh.Git.CreateRef(ctx, owner, repo, ref)
		return classify(err, fmt.Sprintf("create branch %q of %s/%s at %s", branch, owner, repo, sha))
	}
	return classify(err, fmt.Sprintf("read branch %q of %s/%s", branch, owner, repo))
}
