package ghaction

import (
	"context"
	"errors"
	"fmt"
	"github.com/evalgate/evalgate/internal/gate"

	"github.com/evalgate/evalgate/internal/github"
)

// check runs mode check: prepare the input (reading the gate from the base commit),
// run the callback, publish, report. Each channel (check run, comment, job summary,
// outputs) is written whatever becomes of the others, and the exit code follows the
// verdict whatever failed to publish.
func (r *runner) check(ctx context.Context, check CheckFunc) int {
	gh, err := r.client(r.in.Token)
	if err != nil {
		return r.cmd.stop(err, r.budget)
	}
	if r.ev.Run != nil {
		rctx, done := r.budget.context(ctx, stretchRead)
		var client pullRequests
		if gh != nil {
			client = gh
		}
		r.ev, err = resolveWorkflowRun(rctx, client, r.owner, r.repo, r.ev)
		done()
		if err != nil {
			return r.cmd.stop(&eventError{r.budget.explain(err)}, r.budget)
		}
	}
	p := publisher{r: r, gh: gh, headSHA: r.ev.HeadSHA}
	if p.headSHA == "" {
		p.headSHA = r.sha
	}
	p.start(ctx)
	// A check run started is concluded even if the check panics: a required check
	// must never stay in progress. The panic goes on after that.
	defer func() {
		if v := recover(); v != nil {
			p.fail(context.WithoutCancel(ctx), fmt.Errorf("evalgate stopped unexpectedly: %v", v))
			panic(v)
		}
	}()

	cin, err := r.prepare(ctx, gh)
	var out *Outcome
	if err == nil {
		out, err = check(ctx, cin)
		if err == nil && out == nil {
			err = errors.New("the check returned no outcome")
		}
		if err == nil && out.verdict().Conclusion() != gate.ConclusionFailure {
			var pulls openPulls
			if gh != nil {
				pulls = gh
			}
			err = r.checkSharedHead(ctx, pulls, p.headSHA)
		}
	}
	if err != nil {
		err = r.budget.explain(err)
		p.fail(ctx, err)
		return r.cmd.stop(err, r.budget)
	}

	notices := notices(r.ev, cin, out)
	p.publish(ctx, out, notices)
	r.writeCheckOutputs(out, p.commentURL)
	summary := notices + out.CommentMarkdown
	if p.skip != "" {
		summary = fmt.Sprintf("> [!NOTE]\n> %s\n\n%s", p.skip, summary)
	}
	r.cmd.addSummary(r.failures.note() + summary)
	_, checkFailed := r.failures[ChannelCheckRun]
	r.cmd.annotate(r.logAnnotations(out, p.skip != "" || checkFailed || p.headSHA == ""))
	r.cmd.setOutput("failed-channels", r.failures.list())
	return r.exitCode(out)
}

// exitCode applies the fail-on input to the outcome (gate says what it means).
func (r *runner) exitCode(out *Outcome) int {
	return out.verdict().StepExitCode(r.in.FailOn, out.FailedSoft)
}

// logAnnotations are the ::error/::warning lines: the verdict first, then the item
// annotations when no check run carries them (fork, read-only token).
func (r *runner) logAnnotations(out *Outcome, fallback bool) []github.Annotation {
	var anns []github.Annotation
	title := out.CheckTitle
	if title == "" {
		title = "evalgate: " + string(out.Verdict)
	}
	if level := out.verdict().AnnotationLevel(); level != gate.LevelNone {
		anns = append(anns, github.Annotation{Level: github.Level(level), Title: r.in.CheckName, Message: title})
	}
	if fallback {
		anns = append(anns, r.repoAnnotations(out.Annotations)...)
	}
	return anns
}

// repoAnnotations rewrites annotation paths relative to the repository root, as the
// Checks API and workflow commands want them.
func (r *runner) repoAnnotations(in []github.Annotation) []github.Annotation {
	out := make([]github.Annotation, 0, len(in))
	for _, a := range in {
		if p, err := r.ws.repoPath(a.Path); err == nil {
			a.Path = p
		}
		out = append(out, a)
	}
	return out
}
