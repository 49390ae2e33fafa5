package ghaction

import (
	"fmt"
	"github.com/evalgate/evalgate/internal/gate"
	"strings"
)

// notices are the lines Run puts at the top of the comment and the job summary: who
// accepted a regression, and that the pull request changes what the gate is read from.
func notices(ev Event, in CheckInput, out *Outcome) string {
	var b strings.Builder
	if out.Verdict == gate.Accepted && in.AcceptedBy != "" {
		fmt.Fprintf(&b, "> [!NOTE]\n> Regression accepted by @%s with the `%s` label: the check is neutral.\n\n", in.AcceptedBy, codeSpan(in.AcceptLabel))
	}
	if len(in.ProtectedChanged) > 0 {
		quoted := make([]string, len(in.ProtectedChanged))
		for i, p := range in.ProtectedChanged {
			quoted[i] = "`" + codeSpan(p) + "`"
		}
		fmt.Fprintf(&b, "> [!WARNING]\n> This pull request changes what the gate is read from: %s. "+
			"The baseline and the gates used here come from the base commit `%s`; the changes apply once merged.\n\n",
			strings.Join(quoted, ", "), short(ev.BaseSHA))
	}
	return b.String()
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
