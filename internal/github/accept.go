package github

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// Acceptance is what a pull request's accept label says about its head commit. A
// maintainer accepts what they saw. For a run of a pull request event (Trigger set) the
// label accepts the commit it was applied to, and only in the run its application
// started: GitHub's payload of that run names the label, who applied it and the pull
// request's head at that moment. For a workflow_run (Trigger nil), whose payload does not
// say what started the producer, the label accepts the commits that had reached GitHub
// when it was applied, never one pushed after it. Both times are GitHub's own (an issue
// event's and a check suite's); a commit's git dates are the pusher's to choose.
type Acceptance struct {
	// Label is the accept label asked about.
	Label string
	// Labeler is the login of whoever last applied the label, when the pull request
	// carries it now and that user may write to the repository; "" otherwise.
	Labeler string
	// LabeledAt is when Labeler applied the label.
	LabeledAt time.Time
	// HeadSHA is the head commit judged (the one the check run is posted on).
	HeadSHA string
	// PushedAt is when HeadSHA reached GitHub: the creation of its earliest check suite
	// (GitHub makes one for every pushed commit an app such as Actions checks). Zero
	// when it has none, or HeadSHA is "", or it could not be read, or Trigger is set
	// (it is not read then).
	PushedAt time.Time
	// Trigger is what started the run, from the payload of a pull request event (whose
	// pull_request.head.sha is HeadSHA); nil for a workflow_run.
	Trigger *Trigger
}

// Trigger is what a pull request event's payload says started the run: its action
// (labeled, synchronize, opened, ...), the label a labeled or unlabeled event names,
// and who acted. A re-run of a workflow gets its first run's payload.
type Trigger struct {
	Action string // payload action
	Label  string // payload label.name; "" unless Action is labeled or unlabeled
	Sender string // payload sender.login
}

// Applied reports whether the run was started by applying label (case-insensitive, as
// GitHub compares label names).
func (t *Trigger) Applied(label string) bool {
	return t != nil && t.Action == "labeled" && strings.EqualFold(t.Label, label)
}

// By is the maintainer whose label accepts the head commit; "" when none does. With a
// Trigger: Labeler, when the run was started by Labeler applying the label (so HeadSHA
// is the commit it was applied to), in any other run "", even with the label on. Without
// one: Labeler, when the label was applied after the head commit reached GitHub; "" when
// not, and when that time is unknown (an acceptance that cannot be tied to the commit
// does not count). Both times are whole seconds: within the same second GitHub does not
// say which came first, and a commit pushed just after the label may have been, so it
// does not count.
func (a Acceptance) By() string {
	if a.Labeler == "" {
		return ""
	}
	if a.Trigger != nil {
		if a.Trigger.Applied(a.Label) && strings.EqualFold(a.Trigger.Sender, a.Labeler) {
			return a.Labeler
		}
		return ""
	}
	if a.PushedAt.IsZero() || !a.LabeledAt.After(a.PushedAt) {
		return ""
	}
	return a.Labeler
}

// Stale reports a maintainer's label that does not accept the head commit: with a
// Trigger, a run its application did not start; without one, a label applied before
// the commit was pushed or in the same second, or with the push time unknown.
func (a Acceptance) Stale() bool { return a.Labeler != "" && a.By() == "" }

// Acceptance reads what label on pull request n says about its head commit headSHA:
// who last applied it, if the pull request carries it now and that user may write
// (permission admin, maintain or write), and, when trigger is nil, when headSHA reached
// GitHub. trigger is what started the run, from a pull request event's payload (nil for
// a workflow_run). An error reading the push time comes with the labeler filled in, so
// the caller can say whose acceptance did not count.
func (c *Client) Acceptance(ctx context.Context, owner, repo string, n int, headSHA, label string, trigger *Trigger) (Acceptance, error) {
	acc := Acceptance{Label: label, HeadSHA: headSHA, Trigger: trigger}
	pr, err := c.PullRequest(ctx, owner, repo, n)
	if err != nil {
		return acc, err
	}
	if !hasLabel(pr.Labels, label) {
		return acc, nil
	}
	login, at, err := c.labeler(ctx, owner, repo, n, label)
	if err != nil || login == "" {
		return acc, err
	}
	ok, err := c.canWrite(ctx, owner, repo, login)
	if err != nil || !ok {
		return acc, err
	}
	acc.Labeler, acc.LabeledAt = login, at
	if headSHA != "" && trigger == nil {
		acc.PushedAt, err = c.pushedAt(ctx, owner, repo, headSHA)
	}
	return acc, err
}

// labeler returns the login of whoever applied label to issue n most recently, and when;
// "" when the label's last event removed it.
func (c *Client) labeler(ctx context.Context, owner, repo string, n int, label string) (string, time.Time, error) {
	events, err := listAll(ctx, func(ctx context.Context, o gh.ListOptions) ([]*gh.IssueEvent, *gh.Response, error) {
		return c.gh.Issues.ListIssueEvents(ctx, owner, repo, n, &o)
	})
	if err != nil {
		return "", time.Time{}, classify(err, fmt.Sprintf("list events of %s/%s#%d", owner, repo, n))
	}
	// The label's last event decides: a "labeled" names who applied it, an "unlabeled"
	// voids it (the pull request read a moment earlier may still show the label). Last
	// is by GitHub's time, then its event id, then the list's order (oldest first), so
	// an answer in another order cannot pass off an older application as the last one.
	var last *gh.IssueEvent
	for _, e := range events {
		if (e.GetEvent() != "labeled" && e.GetEvent() != "unlabeled") || !strings.EqualFold(e.GetLabel().GetName(), label) {
			continue
		}
		if last == nil || !eventBefore(e, last) {
			last = e
		}
	}
	if last == nil || last.GetEvent() != "labeled" {
		return "", time.Time{}, nil
	}
	return last.GetActor().GetLogin(), last.GetCreatedAt().Time, nil
}

// eventBefore reports whether issue event a happened before b: by time, and within the
// same second (GitHub's precision) by event id.
func eventBefore(a, b *gh.IssueEvent) bool {
	if ta, tb := a.GetCreatedAt().Time, b.GetCreatedAt().Time; !ta.Equal(tb) {
		return ta.Before(tb)
	}
	return a.GetID() < b.GetID()
}

// pushedAt is when commit sha reached GitHub: the earliest creation time of its check
// suites; zero when it has none.
func (c *Client) pushedAt(ctx context.Context, owner, repo, sha string) (time.Time, error) {
	suites, err := listAll(ctx, func(ctx context.Context, o gh.ListOptions) ([]*gh.CheckSuite, *gh.Response, error) {
		res, resp, err := c.gh.Checks.ListCheckSuitesForRef(ctx, owner, repo, sha, &gh.ListCheckSuiteOptions{ListOptions: o})
		if err != nil || res == nil {
			return nil, resp, err
		}
		return res.CheckSuites, resp, nil
	})
	if err != nil {
		return time.Time{}, classify(err, fmt.Sprintf("list check suites of %s/%s@%s", owner, repo, sha))
	}
	var first time.Time
	for _, s := range suites {
		if t := s.GetCreatedAt().Time; !t.IsZero() && (first.IsZero() || t.Before(first)) {
			first = t
		}
	}
	return first, nil
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
