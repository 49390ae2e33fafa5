package ghaction

import (
	"context"
	"errors"
	"fmt"
	"github.com/evalgate/evalgate/internal/gate"
	"regexp"

	"github.com/evalgate/evalgate/internal/github"
)

// Why a run reports in the job summary only. Each says the verdict still holds.
const (
	fallbackNoToken  = "No `github-token`: no pull-request comment or check run; the step's exit code enforces the verdict."
	fallbackFork     = "Pull request from a fork: its token is read-only, so there is no pull-request comment or check run; the step's exit code enforces the verdict."
	fallbackReadOnly = "The token cannot write here (it needs `checks: write` and `pull-requests: write`): no pull-request comment or check run; the step's exit code enforces the verdict."
)

// publisher publishes one check mode run on GitHub, or records why it cannot.
type publisher struct {
	r          *runner
	gh         *github.Client
	headSHA    string
	runID      int64
	fallback   string // why nothing (more) is published on GitHub; "" while publishing
	commentURL string
}

// start creates the check run in progress, so the pull request shows evalgate at work.
func (p *publisher) start(ctx context.Context) {
	switch {
	case p.gh == nil:
		p.fallback = fallbackNoToken
		return
	case p.r.ev.ReadOnly():
		p.fallback = fallbackFork
		return
	case p.headSHA == "":
		return
	}
	run, err := p.gh.StartCheckRun(ctx, p.r.owner, p.r.repo, p.r.in.CheckName, p.headSHA)
	if err != nil {
		p.failed(err)
		return
	}
	p.runID = run.ID
}

// publish completes the check run and writes the sticky comment.
func (p *publisher) publish(ctx context.Context, out *Outcome, notices string) {
	if p.fallback != "" {
		return
	}
	r := p.r
	suite := out.Suite
	if suite == "" {
		suite = r.in.CheckName
	}
	title := out.CheckTitle
	if title == "" {
		title = "evalgate: " + string(out.Verdict)
	}
	summary := out.CheckSummary
	if summary == "" {
		summary = out.CommentMarkdown
	}
	res, err := p.gh.Publish(ctx, github.Publication{
		Owner: r.owner, Repo: r.repo, PRNumber: r.ev.PRNumber, HeadSHA: p.headSHA,
		Marker:      marker(suite),
		CommentBody: notices + out.CommentMarkdown,
		CommentMode: r.in.Comment,
		Changed:     out.Changed || !out.HasBaseline,
		Failing:     out.Verdict != gate.Pass,
		CheckName:   r.in.CheckName, CheckRunID: p.runID,
		Conclusion:   Conclusion(out.Verdict, out.Blocks),
		CheckTitle:   title,
		CheckSummary: notices + summary,
		CheckText:    out.CheckText,
		Annotations:  r.repoAnnotations(out.Annotations),
	})
	p.commentURL = res.CommentURL
	if err != nil {
		p.failed(err)
	}
}

// fail concludes a started check run as failed when the check itself could not run,
// so a required check never stays in progress.
func (p *publisher) fail(ctx context.Context, cause error) {
	if p.fallback != "" || p.headSHA == "" {
		return
	}
	_, err := p.gh.Publish(ctx, github.Publication{
		Owner: p.r.owner, Repo: p.r.repo, HeadSHA: p.headSHA,
		CheckName: p.r.in.CheckName, CheckRunID: p.runID,
		Conclusion:   github.ConclusionFailure,
		CheckTitle:   "evalgate could not run",
		CheckSummary: fmt.Sprintf("evalgate stopped before judging this commit:\n\n```\n%v\n```\n\nSee the workflow log.", cause),
	})
	if err != nil {
		p.failed(err)
	}
}

// failed records a publishing error: a read-only token falls back quietly to the job
// summary, anything else also warns.
func (p *publisher) failed(err error) {
	if errors.Is(err, github.ErrReadOnly) {
		p.fallback = fallbackReadOnly
		return
	}
	p.r.a.Warningf("evalgate: publishing on GitHub failed: %v", err)
	p.fallback = "Publishing on GitHub failed (see the workflow log); the step's exit code enforces the verdict."
}

// unsafeMarker matches what may not appear in a marker's suite name; runs of dashes are
// collapsed too, since an HTML comment may not hold "--".
var (
	unsafeMarker = regexp.MustCompile(`[^A-Za-z0-9._/:+=-]+`)
	dashes       = regexp.MustCompile(`-{2,}`)
)

// marker is the hidden comment that finds suite's sticky comment again.
func marker(suite string) string {
	name := dashes.ReplaceAllString(unsafeMarker.ReplaceAllString(suite, "-"), "-")
	return "<!-- evalgate:suite=" + name + " -->"
}
