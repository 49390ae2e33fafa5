package github

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	gh "github.com/google/go-github/v60/github"
)

// UpsertComment writes p's sticky comment on pull request p.PRNumber: the comment that
// starts with p.Marker is updated in place, or created if there is none, as
// p.CommentMode allows. It returns the comment's HTML URL, or "" when the mode wants
// no comment. A comment that already reads the same is left as it is.
//
// All pages of comments are searched. Before creating, the comments are listed again,
// so a job that raced this one and created the comment first is updated instead of
// duplicated. If several comments carry the marker (an earlier race), the newest is
// updated and the older ones are deleted. The body is cut below GitHub's size limit
// with TruncationNote at the end.
func (c *Client) UpsertComment(ctx context.Context, p Publication) (string, error) {
	mode := p.CommentMode
	if mode == "" {
		mode = CommentAlways
	}
	if mode == CommentNever || p.PRNumber <= 0 {
		return "", nil
	}
	if err := checkMarker(p.Marker); err != nil {
		return "", err
	}
	if p.FromFork {
		return "", fmt.Errorf("comment on %s/%s#%d: pull request from a fork: %w", p.Owner, p.Repo, p.PRNumber, ErrReadOnly)
	}
	body := p.CommentBody
	if !hasMarker(body, p.Marker) {
		body = p.Marker + "\n" + body
	}
	body = Truncate(body, maxCommentLength-1, TruncationNote)

	found, err := c.markedComments(ctx, p.Owner, p.Repo, p.PRNumber, p.Marker)
	if err != nil {
		return "", err
	}
	if len(found) == 0 {
		if !mode.Wants(false, p.Changed, p.Failing) {
			return "", nil
		}
		// Another job for the same suite may have commented since the first listing.
		if found, err = c.markedComments(ctx, p.Owner, p.Repo, p.PRNumber, p.Marker); err != nil {
			return "", err
		}
	}
	if len(found) == 0 {
		var com *gh.IssueComment
		if com, found, err = c.createComment(ctx, p, body); err != nil || com != nil {
			return com.GetHTMLURL(), err
		}
	}

	newest := found[len(found)-1]
	for _, old := range found[:len(found)-1] {
		// Best effort: a duplicate left behind is only cosmetic, and the next run
		// tries again.
		_, _ = c.gh.Issues.DeleteComment(ctx, p.Owner, p.Repo, old.GetID())
	}
	if newest.GetBody() == body {
		return newest.GetHTMLURL(), nil
	}
	com, _, err := c.gh.Issues.EditComment(ctx, p.Owner, p.Repo, newest.GetID(), &gh.IssueComment{Body: &body})
	if err != nil {
		return "", classify(err, fmt.Sprintf("update comment %d on %s/%s#%d", newest.GetID(), p.Owner, p.Repo, p.PRNumber))
	}
	return com.GetHTMLURL(), nil
}

// maxCreateAttempts bounds the tries of creating the sticky comment or the check run.
const maxCreateAttempts = 3

// createComment creates the sticky comment with body. A create GitHub may have done
// although the answer said otherwise (a 5xx, a timeout, a connection lost after the
// request was sent) is never sent again blindly: the comments are listed first, and
// when the comment is there, it is returned in found for the caller to update, so a
// flaky GitHub never gets the comment twice.
func (c *Client) createComment(ctx context.Context, p Publication, body string) (*gh.IssueComment, []*gh.IssueComment, error) {
	op := fmt.Sprintf("create comment on %s/%s#%d", p.Owner, p.Repo, p.PRNumber)
	for attempt := 1; ; attempt++ {
		com, _, err := c.gh.Issues.CreateComment(withoutBlindRetry(ctx), p.Owner, p.Repo, p.PRNumber, &gh.IssueComment{Body: &body})
		if err == nil {
			return com, nil, nil
		}
		if !mayHaveLanded(err) || attempt == maxCreateAttempts || ctx.Err() != nil {
			return nil, nil, classify(err, op)
		}
		found, lerr := c.markedComments(ctx, p.Owner, p.Repo, p.PRNumber, p.Marker)
		if lerr != nil {
			return nil, nil, classify(err, op)
		}
		if len(found) > 0 {
			return nil, found, nil
		}
	}
}

// mayHaveLanded reports whether a failed write may have been done by GitHub all the
// same: it answered 5xx, or the answer was lost. A refusal (4xx, a rate limit) or a
// request that never left was not done.
func mayHaveLanded(err error) bool {
	if s := status(err); s != 0 {
		return s >= 500
	}
	var we *WaitError
	return !errors.As(err, &we) && !neverSent(err)
}

// markedComments lists, oldest first, the comments on issue n that start with marker.
func (c *Client) markedComments(ctx context.Context, owner, repo string, n int, marker string) ([]*gh.IssueComment, error) {
	all, err := listAll(ctx, func(ctx context.Context, o gh.ListOptions) ([]*gh.IssueComment, *gh.Response, error) {
		return c.gh.Issues.ListComments(ctx, owner, repo, n, &gh.IssueListCommentsOptions{ListOptions: o})
	})
	if err != nil {
		return nil, classify(err, fmt.Sprintf("list comments on %s/%s#%d", owner, repo, n))
	}
	var found []*gh.IssueComment
	for _, com := range all {
		if hasMarker(com.GetBody(), marker) {
			found = append(found, com)
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		ti, tj := found[i].GetCreatedAt().Time, found[j].GetCreatedAt().Time
		if !ti.Equal(tj) {
			return ti.Before(tj)
		}
		return found[i].GetID() < found[j].GetID()
	})
	return found, nil
}

// hasMarker reports whether a comment body starts with marker. Only the start counts,
// so a comment that merely quotes the marker is never taken over.
func hasMarker(body, marker string) bool {
	return strings.HasPrefix(strings.TrimLeft(body, " \t\r\n"), marker)
}

// checkMarker refuses markers that could not find the comment again or could show.
func checkMarker(m string) error {
	if !strings.HasPrefix(m, "<!--") || !strings.HasSuffix(m, "-->") || len(m) < 8 ||
		strings.ContainsAny(m, "\r\n") || strings.Contains(m[4:len(m)-3], "--") {
		return fmt.Errorf("comment marker %q is not a one-line HTML comment such as \"<!-- evalgate:suite=NAME -->\"", m)
	}
	return nil
}
