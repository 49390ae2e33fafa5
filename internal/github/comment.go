package github

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// UpsertComment writes p's sticky comment on pull request p.PRNumber, as p.CommentMode
// allows, and returns its HTML URL ("" when the mode wants no comment).
//
// A sticky comment is one written by the token's own identity (Identity, or
// p.CommentAuthor) whose body starts with p.Marker. No other comment is ever edited or
// deleted, whatever it holds. All pages of comments are searched.
//
// Two runs may publish at once (a re-run, a push during a run). They converge on one
// comment holding the later run's body: the later run is the one with the greater
// (p.RunID, p.RunAttempt), stamped in a hidden last line, whichever of the
// two finishes first. After every write the comments are listed again, once the write
// has had time to land everywhere (twice as long as it took), and until that listing
// shows the result:
//   - the oldest sticky comment is kept and holds this run's body, unless it holds a
//     later run's (a run never writes over a later run's body, and rewrites its own
//     if an earlier run's write landed over it);
//   - the newer stickies, duplicates of a race, are deleted, but for a later run's,
//     which that run deletes once its body is in the oldest; when the oldest holds a
//     later run's body, only this run's own duplicates are.
//
// A run writes only its own body, never text copied from another comment: a comment
// that carries the marker and a later stamp but was not written by evalgate (another
// workflow posting as the same bot) can at most keep this run from writing over it.
//
// The body is cut below GitHub's size limit with TruncationNote at the end. The URL
// comes from the last listing, so it is set even when a write's answer has no body.
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
	author := p.CommentAuthor
	if author == "" {
		var err error
		if author, err = c.Identity(ctx); err != nil {
			return "", err
		}
	}
	s := &sticky{c: c, p: p, author: author, stamp: runStamp{p.RunID, p.RunAttempt}}
	s.body = s.compose(p.CommentBody)

	found, err := s.list(ctx)
	if err != nil {
		return "", err
	}
	if len(found) == 0 {
		if !mode.Wants(false, p.Changed, p.Failing) {
			return "", nil
		}
		// Another job for the same suite may have commented since the first listing.
		if found, err = s.list(ctx); err != nil {
			return "", err
		}
	}
	if len(found) == 0 {
		created, err := s.create(ctx)
		if err != nil {
			return "", err
		}
		found = created
	}
	return s.converge(ctx, found)
}

// maxStickyWrites bounds the writes of one UpsertComment while runs race.
const maxStickyWrites = 5

// maxSettle bounds the wait after a write before listing again.
const maxSettle = 10 * time.Second

// sticky is one UpsertComment call's state.
type sticky struct {
	c      *Client
	p      Publication
	author string
	stamp  runStamp
	body   string
	wrote  time.Duration // how long the last write took; 0: none since the last listing
	writes int
	// lastURL is the URL in the last write's answer ("" if it had no body).
	lastURL string
}

// compose returns the comment body: the marker, then body (without a marker of its
// own) cut to GitHub's limit, then the run stamp on the last line.
func (s *sticky) compose(body string) string {
	body = strings.TrimLeft(body, " \t\r\n")
	if strings.HasPrefix(body, s.p.Marker) {
		body = strings.TrimLeft(strings.TrimPrefix(body, s.p.Marker), " \t")
		body = strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n")
	}
	stamp := ""
	if s.stamp.id > 0 {
		stamp = "\n" + s.stamp.line()
	}
	return Truncate(s.p.Marker+"\n"+body, maxCommentLength-1-len(stamp), TruncationNote) + stamp
}

// converge settles found (the stickies, oldest first, after a listing or a create) into
// one comment holding the latest body, and returns its URL.
func (s *sticky) converge(ctx context.Context, found []*gh.IssueComment) (string, error) {
	for {
		if s.wrote > 0 {
			if err := s.c.sleep(ctx, min(2*s.wrote, maxSettle)); err != nil {
				return "", fmt.Errorf("%s: %w", s.op("list comments on"), err)
			}
			var err error
			if found, err = s.list(ctx); err != nil {
				return "", err
			}
			s.wrote = 0
		}
		if len(found) == 0 {
			// The listing does not show what was just written: a replica that lags, or
			// someone deleted it. The write's own answer is all there is to go by.
			if s.lastURL != "" {
				return s.lastURL, nil
			}
			return "", fmt.Errorf("%s: the comment is not listed after writing it (deleted meanwhile?)", s.op("update the comment on"))
		}
		keep := found[0]
		later := s.stamp.before(stampOf(keep.GetBody()))
		if later {
			// A later run's body: it is that run's to keep. This run writes nothing
			// over it, and deletes only its own duplicates below: that run deletes
			// the others once its body is in keep, and when the stamp is forged (another
			// workflow posting as the same bot) the sticky of an earlier run stays.
		} else if keep.GetBody() != s.body {
			if s.writes == maxStickyWrites {
				return keep.GetHTMLURL(), fmt.Errorf("%s: it kept changing under %d writes (several runs at once?)", s.op("update the comment on"), s.writes)
			}
			if err := s.edit(ctx, keep.GetID(), s.body); err != nil {
				return "", err
			}
			continue
		}
		for _, dup := range found[1:] {
			if d := stampOf(dup.GetBody()); s.stamp.before(d) || (later && d != s.stamp) {
				continue // a later run's (it moves its body into keep and deletes this itself), or not ours to judge
			}
			// Best effort: a duplicate left behind is only cosmetic, and the next run
			// tries again. (Another run may have deleted it already: a 404.)
			_, _ = s.c.gh.Issues.DeleteComment(ctx, s.p.Owner, s.p.Repo, dup.GetID())
		}
		return keep.GetHTMLURL(), nil
	}
}

// edit writes body into comment id.
func (s *sticky) edit(ctx context.Context, id int64, body string) error {
	start := s.c.now()
	com, _, err := s.c.gh.Issues.EditComment(ctx, s.p.Owner, s.p.Repo, id, &gh.IssueComment{Body: &body})
	s.wrote, s.writes, s.lastURL = max(s.c.now().Sub(start), time.Nanosecond), s.writes+1, com.GetHTMLURL()
	if err != nil {
		return classify(err, fmt.Sprintf("update comment %d on %s/%s#%d", id, s.p.Owner, s.p.Repo, s.p.PRNumber))
	}
	return nil
}

func (s *sticky) op(what string) string {
	return fmt.Sprintf("%s %s/%s#%d", what, s.p.Owner, s.p.Repo, s.p.PRNumber)
}

// maxCreateAttempts bounds the tries of creating the sticky comment or the check run.
const maxCreateAttempts = 3

// create creates the sticky comment and returns what converge starts from. A create
// GitHub may have done although the answer said otherwise (a 5xx, a timeout, a
// connection lost after the request was sent) is never sent again blindly: the comments
// are listed first, and when the comment is there, it is returned, so a flaky GitHub
// never gets the comment twice.
func (s *sticky) create(ctx context.Context) ([]*gh.IssueComment, error) {
	op := s.op("create comment on")
	for attempt := 1; ; attempt++ {
		start := s.c.now()
		com, _, err := s.c.gh.Issues.CreateComment(withoutBlindRetry(ctx), s.p.Owner, s.p.Repo, s.p.PRNumber, &gh.IssueComment{Body: &s.body})
		if err == nil {
			s.wrote, s.writes, s.lastURL = max(s.c.now().Sub(start), time.Nanosecond), s.writes+1, com.GetHTMLURL()
			return []*gh.IssueComment{com}, nil
		}
		if !mayHaveLanded(err) || attempt == maxCreateAttempts || ctx.Err() != nil {
			return nil, classify(err, op)
		}
		found, lerr := s.list(ctx)
		if lerr != nil {
			return nil, classify(err, op)
		}
		if len(found) > 0 {
			return found, nil
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

// list returns, oldest first, the stickies: the comments on the pull request written
// by s.author whose body starts with the marker.
func (s *sticky) list(ctx context.Context) ([]*gh.IssueComment, error) {
	all, err := listAll(ctx, func(ctx context.Context, o gh.ListOptions) ([]*gh.IssueComment, *gh.Response, error) {
		return s.c.gh.Issues.ListComments(ctx, s.p.Owner, s.p.Repo, s.p.PRNumber, &gh.IssueListCommentsOptions{ListOptions: o})
	})
	if err != nil {
		return nil, classify(err, s.op("list comments on"))
	}
	var found []*gh.IssueComment
	for _, com := range all {
		if strings.EqualFold(com.GetUser().GetLogin(), s.author) && hasMarker(com.GetBody(), s.p.Marker) {
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

// runStamp orders runs: a workflow run started later has a greater id, and a re-run
// of one a greater attempt. The zero stamp (no run id: a comment of an older evalgate,
// or a run outside Actions) comes before every other.
type runStamp struct {
	id      int64
	attempt int
}

func (r runStamp) before(o runStamp) bool {
	return r.id < o.id || (r.id == o.id && r.attempt < o.attempt)
}

func (r runStamp) line() string {
	return fmt.Sprintf("<!-- evalgate:run=%d.%d -->", r.id, r.attempt)
}

// stampLine matches the run stamp, a sticky's last line.
var stampLine = regexp.MustCompile(`(?:^|\n)<!-- evalgate:run=([0-9]{1,18})\.([0-9]{1,9}) -->\s*$`)

// stampOf reads the run stamp of a sticky's body.
func stampOf(body string) runStamp {
	m := stampLine.FindStringSubmatch(body)
	if m == nil {
		return runStamp{}
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	attempt, _ := strconv.Atoi(m[2])
	return runStamp{id, attempt}
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
