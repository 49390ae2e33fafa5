package github

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v60/github"
)

// AcceptedBy says who accepted pull request n's regression with label: the login of the
// user who last applied the label, if the pull request carries it now and that user may
// write to the repository (permission admin, maintain or write); "" otherwise.
func (c *Client) AcceptedBy(ctx context.Context, owner, repo string, n int, label string) (string, error) {
	pr, err := c.PullRequest(ctx, owner, repo, n)
	if err != nil {
		return "", err
	}
	if !hasLabel(pr.Labels, label) {
		return "", nil
	}
	login, err := c.labeler(ctx, owner, repo, n, label)
	if err != nil || login == "" {
		return "", err
	}
	ok, err := c.canWrite(ctx, owner, repo, login)
	if err != nil || !ok {
		return "", err
	}
	return login, nil
}

// labeler returns the login of whoever applied label to issue n most recently.
func (c *Client) labeler(ctx context.Context, owner, repo string, n int, label string) (string, error) {
	events, err := listAll(ctx, func(ctx context.Context, o gh.ListOptions) ([]*gh.IssueEvent, *gh.Response, error) {
		return c.gh.Issues.ListIssueEvents(ctx, owner, repo, n, &o)
	})
	if err != nil {
		return "", classify(err, fmt.Sprintf("list events of %s/%s#%d", owner, repo, n))
	}
	// Events come oldest first; the last "labeled" wins.
	var login string
	for _, e := range events {
		if e.GetEvent() == "labeled" && strings.EqualFold(e.GetLabel().GetName(), label) {
			login = e.GetActor().GetLogin()
		}
	}
	return login, nil
}

// canWrite reports whether user may push to the repository. A user GitHub does not know
// as a collaborator (404) cannot.
func (c *Client) canWrite(ctx context.Context, owner, repo, user string) (bool, error) {
	perm, _, err := c.gh.Repositories.GetPermissionLevel(ctx, owner, repo, user)
	if err != nil {
		if status(err) == http.StatusNotFound {
			return false, nil
		}
		return false, classify(err, fmt.Sprintf("get permission of %s on %s/%s", user, owner, repo))
	}
	switch perm.GetPermission() {
	case "admin", "maintain", "write":
		return true, nil
	}
	return false, nil
}

func hasLabel(labels []string, label string) bool {
	for _, l := range labels {
		if strings.EqualFold(l, label) {
			return true
		}
	}
	return false
}
