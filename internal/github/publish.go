package github

import (
	"context"
	"errors"
	"fmt"
)

// Published says where a Publication went.
type Published struct {
	CommentURL  string // "" when no comment was written
	CheckRunID  int64
	CheckRunURL string
}

// Publish completes p's check run (starting one first unless p.CheckRunID names it) and
// writes its sticky comment. Both are tried even if one fails; the errors are joined,
// and errors.Is(err, ErrReadOnly) tells that the token could not write (a pull request
// from a fork returns that at once, without a request).
func (c *Client) Publish(ctx context.Context, p Publication) (Published, error) {
	var out Published
	if p.FromFork {
		return out, fmt.Errorf("publish on %s/%s#%d: pull request from a fork: %w", p.Owner, p.Repo, p.PRNumber, ErrReadOnly)
	}
	var errs []error
	if p.CheckName != "" && p.HeadSHA != "" {
		run := CheckRun{ID: p.CheckRunID}
		var err error
		if run.ID == 0 {
			run, err = c.StartCheckRun(ctx, p.Owner, p.Repo, p.CheckName, p.HeadSHA, p.CheckExternalID)
		}
		if err == nil {
			run, err = c.CompleteCheckRun(ctx, run.ID, p)
		}
		if err != nil {
			errs = append(errs, err)
		} else {
			out.CheckRunID, out.CheckRunURL = run.ID, run.HTMLURL
		}
	}
	url, err := c.UpsertComment(ctx, p)
	if err != nil {
		errs = append(errs, err)
	}
	out.CommentURL = url
	return out, errors.Join(errs...)
}
