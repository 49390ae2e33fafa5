package github

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	gh "github.com/google/go-github/v60/github"
)

// FileAtRef returns the content of the file at path (relative to the repository root)
// as of ref: a commit sha, branch or tag. The action reads the baseline and the gate
// thresholds this way at the pull request's base sha, so a pull request cannot weaken
// its own gate. A missing file is an error matching ErrNotFound.
func (c *Client) FileAtRef(ctx context.Context, owner, repo, path, ref string) ([]byte, error) {
	op := fmt.Sprintf("read %s at %s in %s/%s", path, ref, owner, repo)
	file, dir, _, err := c.gh.Repositories.GetContents(ctx, owner, repo, path, &gh.RepositoryContentGetOptions{Ref: ref})
	if err != nil {
		return nil, classify(err, op)
	}
	if file == nil || dir != nil {
		return nil, fmt.Errorf("%s: not a file", op)
	}
	if file.GetEncoding() == "none" {
		// Files over 1 MB come without content in JSON; ask for the raw bytes.
		return c.rawFile(ctx, owner, repo, path, ref, op)
	}
	s, err := file.GetContent()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return []byte(s), nil
}

// rawFile reads a file of up to 100 MB through the raw media type.
func (c *Client) rawFile(ctx context.Context, owner, repo, path, ref, op string) ([]byte, error) {
	u := fmt.Sprintf("repos/%s/%s/contents/%s?ref=%s", owner, repo, (&url.URL{Path: strings.TrimSuffix(path, "/")}).String(), url.QueryEscape(ref))
	req, err := c.gh.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	req.Header.Set("Accept", "application/vnd.github.raw")
	var buf bytes.Buffer
	if _, err := c.gh.Do(ctx, req, &buf); err != nil {
		return nil, classify(err, op)
	}
	return buf.Bytes(), nil
}
