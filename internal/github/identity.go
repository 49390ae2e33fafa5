package github

import (
	"context"
	"fmt"
	"net/http"
)

// ActionsBot is the login GitHub gives comments written with a workflow's GITHUB_TOKEN.
// That token may not read GET /user (403), so Identity falls back to it.
const ActionsBot = "github-actions[bot]"

// Identity returns the login of the token's own user: the only author whose comments
// UpsertComment ever edits or deletes. It asks GET /user once per Client; when GitHub
// answers 403 or 404 (a GITHUB_TOKEN or an app installation token, which are no user),
// it is ActionsBot. A GitHub App's token comments as "<app-slug>[bot]": name that login
// in Publication.CommentAuthor (the action's comment-author input) instead.
func (c *Client) Identity(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.login != "" {
		return c.login, nil
	}
	u, _, err := c.gh.Users.Get(ctx, "")
	switch {
	case err == nil && u.GetLogin() != "":
		c.login = u.GetLogin()
	case err == nil:
		return "", fmt.Errorf("read the token's user: GitHub's answer names no login")
	case status(err) == http.StatusForbidden || status(err) == http.StatusNotFound:
		c.login = ActionsBot
	default:
		return "", classify(err, "read the token's user")
	}
	return c.login, nil
}
