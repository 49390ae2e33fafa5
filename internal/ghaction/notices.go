package ghaction

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/gate"
)

// notices are the lines Run puts at the top of the comment and the job summary: who
// accepted a regression, where the gate came from when the pull request changes what it
// is read from, and that a pull request adds evalgate.
func notices(ev Event, in CheckInput, out *Outcome) string {
	var b strings.Builder
	if out.Verdict == gate.Accepted && in.AcceptedBy != "" && !out.ProposedAccepted {
		fmt.Fprintf(&b, "> [!NOTE]\n> Regression accepted by @%s with the `%s` label: the check is neutral.\n\n", in.AcceptedBy, codeSpan(in.AcceptLabel))
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

// quotedList is paths as code spans, comma separated.
func quotedList(paths []string) string {
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = "`" + codeSpan(p) + "`"
	}
	return strings.Join(quoted, ", ")
}

// codeSpan makes s safe inside a single-backtick code span.
func codeSpan(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "\r", " ").Replace(s)
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}
