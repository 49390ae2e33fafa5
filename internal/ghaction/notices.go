package ghaction

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
	"github.com/evalgate/evalgate/internal/report"
)

// notices are the lines Run puts at the top of the comment, the check run's summary and
// the job summary: who accepted a regression, or that a label accepted only an earlier
// commit; where the gate came from when the pull request changes what it is read from;
// and that a pull request adds evalgate.
func notices(ev Event, in CheckInput, out *Outcome) string {
	var b strings.Builder
	if by := in.Acceptance.By(); out.Verdict == gate.Accepted && by != "" && !out.ProposedAccepted {
		fmt.Fprintf(&b, "> [!NOTE]\n> Regression accepted by @%s with the `%s` label: the check is neutral.\n\n", report.Escape(by), codeSpan(in.AcceptLabel))
	}
	if in.Acceptance.Stale() {
		fmt.Fprintf(&b, "> [!WARNING]\n> %s\n\n", staleAcceptance(in.Acceptance, in.AcceptLabel))
	}
	switch {
	case in.FirstAdoption:
		fmt.Fprintf(&b, "> [!NOTE]\n> This pull request adds evalgate: the base commit `%s` has no config at `%s`, so the gate used here is this pull request's own (`%s`). "+
			"From the merge on, pull requests are judged by the gate of their base commit.\n\n",
			short(ev.BaseSHA), codeSpan(in.HeadConfig), codeSpan(in.HeadConfig))
	case len(in.ProtectedChanged) > 0 && out.ProposedAccepted:
		fmt.Fprintf(&b, "> [!WARNING]\n> This pull request changes what the gate is read from: %s. "+
			"A maintainer accepted the gate it proposes, so that gate, not the base commit `%s`'s, judged this run (the baseline is still the base commit's).\n\n",
			quotedList(in.ProtectedChanged), short(ev.BaseSHA))
	case len(in.ProtectedChanged) > 0 && in.BaseConfig != "":
		fmt.Fprintf(&b, "> [!WARNING]\n> This pull request changes what the gate is read from: %s. "+
			"The gate used here (`%s` with every file it names, and the baseline) comes from the base commit `%s`; "+
			"the changes apply once merged, or once a maintainer accepts them as a proposed gate.\n\n",
			quotedList(in.ProtectedChanged), codeSpan(in.BaseConfig), short(ev.BaseSHA))
	}
	return b.String()
}

// staleAcceptance says why a maintainer's label accepts nothing here: this run of a
// pull request event was not started by applying it; or, for a workflow_run, it was
// applied before the head commit reached GitHub or in the same second, or when that
// happened cannot be told.
func staleAcceptance(a github.Acceptance, label string) string {
	who, lbl, at := report.Escape(a.Labeler), codeSpan(label), a.LabeledAt.UTC().Format(stampLayout)
	commit := "the head commit"
	if a.HeadSHA != "" {
		commit = "commit `" + short(a.HeadSHA) + "`"
	}
	if a.Trigger != nil {
		return fmt.Sprintf("@%s's `%s` label (applied %s) accepts only the commit it was applied to, in the run that applying it started; "+
			"this run, of %s, was started by %s: remove and re-apply the `%s` label to accept this commit (the workflow must run on `labeled`).",
			who, lbl, at, commit, startedBy(a.Trigger, label), lbl)
	}
	if a.PushedAt.IsZero() {
		return fmt.Sprintf("@%s's `%s` label (applied %s) does not count: when %s reached GitHub cannot be told "+
			"(GitHub lists no check suite for it, or the token may not read them: it needs `checks: read`), so the label cannot be shown to be newer than the commit.",
			who, lbl, at, commit)
	}
	if a.LabeledAt.Equal(a.PushedAt) {
		return fmt.Sprintf("@%s's `%s` label was applied in the same second as %s reached GitHub (%s), so the label cannot be shown to be newer than the commit: "+
			"remove and re-apply the `%s` label, then re-run this workflow, to accept it.",
			who, lbl, commit, at, lbl)
	}
	return fmt.Sprintf("@%s accepted an earlier commit (the `%s` label was applied %s); %s was pushed after it (%s): "+
		"remove and re-apply the `%s` label, then re-run this workflow, to accept this one.",
		who, lbl, at, commit, a.PushedAt.UTC().Format(stampLayout), lbl)
}

// startedBy names what started a run of a pull request event, escaped: the label's
// application by someone other than its last applier, another label, or an action.
func startedBy(t *github.Trigger, label string) string {
	switch {
	case t.Applied(label):
		return "an earlier application of the label, by @" + report.Escape(t.Sender)
	case t.Action == "labeled":
		return "applying the `" + codeSpan(t.Label) + "` label"
	case t.Action == "unlabeled":
		return "removing the `" + codeSpan(t.Label) + "` label"
	case t.Action == "":
		return "an event that names no action"
	}
	return "`" + codeSpan(t.Action) + "`"
}

// stampLayout shows GitHub's times in notices.
const stampLayout = "2006-01-02 15:04:05 UTC"

// quotedList is paths as code spans, comma separated.
func quotedList(paths []string) string {
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = "`" + codeSpan(p) + "`"
	}
	return strings.Join(quoted, ", ")
}

// codeSpan makes s safe inside a single-backtick code span, its hidden characters
// (controls, bidi overrides) shown as report.Visible shows them.
func codeSpan(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "\r", " ").Replace(report.Visible(s))
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}
