package ghaction

import (
	"context"
	"errors"
	"fmt"
	"github.com/evalgate/evalgate/internal/gate"
	"regexp"
	"strings"

	"github.com/evalgate/evalgate/internal/github"
	"github.com/evalgate/evalgate/internal/report"
)

// Why a channel is not published on GitHub although nothing failed. Each says the
// verdict still holds.
const (
	fallbackNoToken = "No `github-token`: no pull-request comment or check run; the step's exit code enforces the verdict."
	fallbackFork    = "Pull request from a fork: its token is read-only, so there is no pull-request comment or check run; the step's exit code enforces the verdict."
)

// readOnlyReason is why a write the token may not make failed, by channel.
var readOnlyReason = map[Channel]string{
	ChannelCheckRun: "the token may not write check runs: give the job `permissions: checks: write`",
	ChannelComment:  "the token may not comment: give the job `permissions: pull-requests: write`",
}

// Channel is one place the action reports in; each is published independently, so one
// that fails never keeps the others from being written.
type Channel string

// Channels, in the order the failed-channels output lists them.
const (
	ChannelCheckRun Channel = "check-run"
	ChannelComment  Channel = "comment"
	ChannelSummary  Channel = "summary"
	ChannelOutputs  Channel = "outputs"
	// ChannelRefreshPR is baseline mode's refresh pull request.
	ChannelRefreshPR Channel = "refresh-pr"
)

var channelOrder = []Channel{ChannelCheckRun, ChannelComment, ChannelSummary, ChannelOutputs, ChannelRefreshPR}

// channelFailures records the channels that failed and why, one line each.
type channelFailures map[Channel]string

// list returns the failed channels in channelOrder, comma separated: the
// failed-channels output.
func (f channelFailures) list() string {
	var names []string
	for _, c := range channelOrder {
		if _, ok := f[c]; ok {
			names = append(names, string(c))
		}
	}
	return strings.Join(names, ",")
}

// note is the job summary's account of the GitHub channels that failed; "" when none.
func (f channelFailures) note() string {
	var b strings.Builder
	for _, c := range channelOrder {
		if why, ok := f[c]; ok {
			fmt.Fprintf(&b, "> - %s: %s\n", channelName(c), why)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "> [!WARNING]\n> Not everything could be published on GitHub (failed-channels: `" + f.list() +
		"`); the step's exit code still enforces the verdict.\n" + b.String() + "\n"
}

func channelName(c Channel) string {
	switch c {
	case ChannelCheckRun:
		return "the check run"
	case ChannelComment:
		return "the pull-request comment"
	case ChannelSummary:
		return "the job summary"
	case ChannelRefreshPR:
		return "the baseline-refresh pull request"
	}
	return "the step outputs"
}

// publisher publishes one check mode run on GitHub (the check run and the sticky
// comment, each on its own), or records why it cannot.
type publisher struct {
	r           *runner
	gh          *github.Client
	headSHA     string
	runID       int64
	skip        string // why nothing is published on GitHub (fork, no token); "" otherwise
	noCheckRun  bool   // the check run cannot be written: its start was refused (403)
	startFailed bool   // starting the check run failed (it may have been made all the same)
	commentURL  string
}

// start creates the check run in progress, so the pull request shows evalgate at work.
func (p *publisher) start(ctx context.Context) {
	switch {
	case p.gh == nil:
		p.skip = fallbackNoToken
		return
	case p.r.ev.ReadOnly():
		p.skip = fallbackFork
		return
	case p.headSHA == "":
		return
	}
	ctx, done := p.r.budget.context(ctx, stretchStart)
	run, err := p.gh.StartCheckRun(ctx, p.r.owner, p.r.repo, p.r.in.CheckName, p.headSHA, p.r.checkExternalID())
	done()
	if err != nil {
		p.failed(ChannelCheckRun, err)
		p.noCheckRun = errors.Is(err, github.ErrReadOnly)
		p.startFailed = true
		return
	}
	p.runID = run.ID
}

// publish completes the check run and writes the sticky comment, each whatever becomes
// of the other.
func (p *publisher) publish(ctx context.Context, out *Outcome, notices string) {
	if p.skip != "" {
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
	pub := github.Publication{
		Owner: r.owner, Repo: r.repo, PRNumber: r.ev.PRNumber, HeadSHA: p.headSHA,
		Marker:        marker(suite),
		CommentAuthor: r.in.CommentAuthor,
		RunID:         r.runID, RunAttempt: r.runAttempt,
		CommentBody: notices + out.CommentMarkdown,
		CommentMode: r.in.Comment,
		Changed:     out.Changed || !out.HasBaseline,
		Failing:     out.Verdict != gate.Pass,
		CheckName:   r.in.CheckName, CheckRunID: p.runID, CheckExternalID: r.checkExternalID(),
		Conclusion:   github.Conclusion(out.verdict().Conclusion()),
		CheckTitle:   title,
		CheckSummary: notices + summary,
		CheckText:    out.CheckText,
		Annotations:  r.repoAnnotations(out.Annotations),
	}
	comment := pub.PRNumber > 0 && pub.CommentMode != github.CommentNever
	s := stretchFinal
	if comment {
		s = stretchCheckRun
	}
	p.checkRun(ctx, pub, s)
	if comment {
		cctx, done := r.budget.context(ctx, stretchFinal)
		url, err := p.gh.UpsertComment(cctx, pub)
		done()
		if err != nil {
			p.failed(ChannelComment, err)
		}
		p.commentURL = url
	}
}

// checkRun concludes the check run with pub's conclusion and output, starting one
// first if the start failed (unless it was refused), within budget stretch s.
func (p *publisher) checkRun(ctx context.Context, pub github.Publication, s stretch) {
	if p.headSHA == "" || p.noCheckRun {
		return
	}
	ctx, done := p.r.budget.context(ctx, s)
	defer done()
	run := github.CheckRun{ID: p.runID}
	var err error
	if run.ID == 0 && p.startFailed {
		// The failed start may have made the run all the same: complete that one.
		if found, ok, ferr := p.gh.FindCheckRun(ctx, pub.Owner, pub.Repo, pub.CheckName, pub.HeadSHA, pub.CheckExternalID); ferr == nil && ok {
			run = found
		}
	}
	if run.ID == 0 {
		run, err = p.gh.StartCheckRun(ctx, pub.Owner, pub.Repo, pub.CheckName, pub.HeadSHA, pub.CheckExternalID)
	}
	if err == nil {
		p.runID = run.ID
		_, err = p.gh.CompleteCheckRun(ctx, run.ID, pub)
	}
	if err != nil {
		p.failed(ChannelCheckRun, err)
		return
	}
	delete(p.r.failures, ChannelCheckRun) // an earlier failure to start is made good
}

// checkExternalID names this run attempt's check run for this suite, so that a run whose
// create answer was lost is found again and never taken for another attempt's: ""
// outside Actions.
func (r *runner) checkExternalID() string {
	if r.runID == 0 {
		return ""
	}
	return fmt.Sprintf("evalgate/%d/%d/%s", r.runID, r.runAttempt, r.in.CheckName)
}

// fail concludes the check run as failed when the check itself could not run, so a
// required check never stays in progress.
func (p *publisher) fail(ctx context.Context, cause error) {
	if p.skip != "" {
		return
	}
	p.checkRun(ctx, github.Publication{
		Owner: p.r.owner, Repo: p.r.repo, HeadSHA: p.headSHA,
		CheckName:       p.r.in.CheckName,
		CheckExternalID: p.r.checkExternalID(),
		Conclusion:      github.ConclusionFailure,
		CheckTitle:      "evalgate could not run",
		CheckSummary:    "evalgate stopped before judging this commit:\n\n" + quoteError(cause) + "\nSee the job summary and the workflow log.",
	}, stretchFinal)
}

// failed records that channel c could not be published, and warns in the log.
func (p *publisher) failed(c Channel, err error) {
	err = p.r.budget.explain(err)
	why := report.EscapeTrunc(oneLine(err.Error()), maxErrorShown) + " (re-run the job to publish it)"
	if errors.Is(err, github.ErrReadOnly) {
		why = readOnlyReason[c]
	}
	p.r.a.Warningf("evalgate: publishing %s on GitHub failed: %v", channelName(c), err)
	p.r.failures[c] = why
}

// maxErrorShown bounds, in characters, one error shown in the job summary or check run.
const maxErrorShown = 2000

// oneLine joins the lines of s with "; ".
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ; ")), " ")
}

// quoteError renders err as a markdown list, one line per joined error, escaped.
func quoteError(err error) string {
	var errs []error
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		errs = joined.Unwrap()
	} else {
		errs = []error{err}
	}
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("- " + report.EscapeTrunc(oneLine(e.Error()), maxErrorShown) + "\n")
	}
	return b.String()
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
