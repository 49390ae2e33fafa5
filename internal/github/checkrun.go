package github

import (
	"context"
	"fmt"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// maxAnnotationsPerRequest: the Checks API takes at most 50 annotations per request;
// more are added by further updates of the same run.
// https://docs.github.com/rest/checks/runs#update-a-check-run
const maxAnnotationsPerRequest = 50

// CheckRun is a check run started by StartCheckRun.
type CheckRun struct {
	ID      int64
	HTMLURL string
}

// StartCheckRun creates check run name on commit headSHA in status in_progress, so the
// pull request shows evalgate at work, and a required check cannot pass while it runs.
// externalID, unique to this run attempt (see Publication.CheckExternalID), finds the
// run again; "" means none.
//
// A create GitHub may have done although the answer said otherwise (a 5xx, a lost
// answer, a 201 without a body or an id) is not sent again blindly: FindCheckRun looks
// for the run first (after a 201, a few times: a listing may lag), so no orphan stays
// in progress.
func (c *Client) StartCheckRun(ctx context.Context, owner, repo, name, headSHA, externalID string) (CheckRun, error) {
	op := fmt.Sprintf("create check run %q on %s/%s@%s", name, owner, repo, headSHA)
	for attempt := 1; ; attempt++ {
		opts := gh.CreateCheckRunOptions{Name: name, HeadSHA: headSHA, Status: gh.String("in_progress")}
		if externalID != "" {
			opts.ExternalID = gh.String(externalID)
		}
		run, _, err := c.gh.Checks.CreateCheckRun(withoutBlindRetry(ctx), owner, repo, opts)
		if err == nil && run.GetID() != 0 {
			return CheckRun{ID: run.GetID(), HTMLURL: run.GetHTMLURL()}, nil
		}
		if err != nil && (!mayHaveLanded(err) || attempt == maxCreateAttempts || ctx.Err() != nil) {
			return CheckRun{}, classify(err, op)
		}
		found, ok, ferr := c.lookUpCreated(ctx, owner, repo, name, headSHA, externalID, err == nil)
		switch {
		case ferr != nil && err != nil:
			return CheckRun{}, classify(err, op)
		case ferr != nil:
			return CheckRun{}, fmt.Errorf("%s: GitHub's answer names no check run, and looking for it failed: %w", op, ferr)
		case ok:
			return found, nil
		case err == nil && attempt == maxCreateAttempts:
			return CheckRun{}, fmt.Errorf("%s: GitHub's answers name no check run, and none is listed", op)
		}
	}
}

// createdLookups is how often a create GitHub answered 2xx without an id is looked up
// before it is made again, waiting createdLookupWait, then twice that, in between: a
// listing may lag a create by a moment.
const (
	createdLookups    = 3
	createdLookupWait = time.Second
)

// lookUpCreated is FindCheckRun after a create that may have landed; answered (the
// create answered 2xx, without an id) looks again while the run is not listed yet, so
// a lagging listing does not make a second run and leave the first in progress.
func (c *Client) lookUpCreated(ctx context.Context, owner, repo, name, headSHA, externalID string, answered bool) (CheckRun, bool, error) {
	tries, wait := 1, createdLookupWait
	if answered {
		tries = createdLookups
	}
	for try := 1; ; try++ {
		found, ok, err := c.FindCheckRun(ctx, owner, repo, name, headSHA, externalID)
		if ok || err != nil || try == tries {
			return found, ok, err
		}
		if err := c.sleep(ctx, wait); err != nil {
			return CheckRun{}, false, err
		}
		wait *= 2
	}
}

// FindCheckRun returns the newest check run named name on commit headSHA that is still
// in progress, if there is one: a run a start whose answer was lost may have made.
// A non-empty externalID must match too, so a run of another attempt or workflow is
// never taken for this one's.
func (c *Client) FindCheckRun(ctx context.Context, owner, repo, name, headSHA, externalID string) (CheckRun, bool, error) {
	res, _, err := c.gh.Checks.ListCheckRunsForRef(ctx, owner, repo, headSHA, &gh.ListCheckRunsOptions{
		CheckName: gh.String(name), Status: gh.String("in_progress"), Filter: gh.String("latest"),
	})
	if err != nil {
		return CheckRun{}, false, classify(err, fmt.Sprintf("list check runs %q on %s/%s@%s", name, owner, repo, headSHA))
	}
	var newest *gh.CheckRun
	for _, r := range res.CheckRuns {
		if r.GetName() == name && r.GetStatus() == "in_progress" && (externalID == "" || r.GetExternalID() == externalID) &&
			r.GetID() != 0 && (newest == nil || r.GetID() > newest.GetID()) {
			newest = r
		}
	}
	if newest == nil {
		return CheckRun{}, false, nil
	}
	return CheckRun{ID: newest.GetID(), HTMLURL: newest.GetHTMLURL()}, true, nil
}

// CompleteCheckRun finishes check run id with p's conclusion, output and annotations.
// Annotations go at most 50 per request: all batches but the last are added while the
// run is still in progress, and the last batch travels with the conclusion, so 120
// annotations take 3 requests. Summary and text are cut below GitHub's limit with
// TruncationNote.
func (c *Client) CompleteCheckRun(ctx context.Context, id int64, p Publication) (CheckRun, error) {
	title := p.CheckTitle
	if title == "" {
		title = p.CheckName
	}
	summary := Truncate(p.CheckSummary, maxCheckOutputLength, TruncationNote)
	anns := checkAnnotations(p.Annotations)
	op := fmt.Sprintf("update check run %d on %s/%s", id, p.Owner, p.Repo)
	for len(anns) > maxAnnotationsPerRequest {
		_, _, err := c.gh.Checks.UpdateCheckRun(ctx, p.Owner, p.Repo, id, gh.UpdateCheckRunOptions{
			Name: p.CheckName,
			Output: &gh.CheckRunOutput{
				Title:       &title,
				Summary:     &summary,
				Annotations: anns[:maxAnnotationsPerRequest],
			},
		})
		if err != nil {
			return CheckRun{}, classify(err, op)
		}
		anns = anns[maxAnnotationsPerRequest:]
	}
	out := &gh.CheckRunOutput{Title: &title, Summary: &summary, Annotations: anns}
	if p.CheckText != "" {
		out.Text = gh.String(Truncate(p.CheckText, maxCheckOutputLength, TruncationNote))
	}
	run, _, err := c.gh.Checks.UpdateCheckRun(ctx, p.Owner, p.Repo, id, gh.UpdateCheckRunOptions{
		Name:       p.CheckName,
		Status:     gh.String("completed"),
		Conclusion: gh.String(string(p.Conclusion)),
		Output:     out,
	})
	if err != nil {
		return CheckRun{}, classify(err, op)
	}
	return CheckRun{ID: run.GetID(), HTMLURL: run.GetHTMLURL()}, nil
}

// checkAnnotations converts annotations to the API's form, filling in what the API
// requires (lines, level, message).
func checkAnnotations(in []Annotation) []*gh.CheckRunAnnotation {
	out := make([]*gh.CheckRunAnnotation, 0, len(in))
	for _, a := range in {
		start := max(a.StartLine, 1)
		end := max(a.EndLine, start)
		level := a.Level
		if level == "" {
			level = LevelWarning
		}
		msg := a.Message
		if msg == "" { // the API requires a message
			msg = a.Title
		}
		ca := &gh.CheckRunAnnotation{
			Path:            gh.String(a.Path),
			StartLine:       gh.Int(start),
			EndLine:         gh.Int(end),
			AnnotationLevel: gh.String(string(level)),
			Message:         gh.String(msg),
		}
		if a.Title != "" {
			ca.Title = gh.String(a.Title)
		}
		out = append(out, ca)
	}
	return out
}
