package report

import (
	"fmt"
	"strings"
)

// judgeChangeNotice is the one line that says the judge differs from the baseline's:
// what changed, that the baseline's recorded outputs were re-judged by the new judge
// for the comparison, and the old-judge comparison beside it (never used for the
// verdict). When the change moved the rubric while its scoring version stayed
// (Comparison.Unbumped), the line says that too and what to do, and takesUnbumped is
// set: the scoring-unbumped warning would repeat it. Empty when the judges are the
// baseline's.
func (r *Report) judgeChangeNotice() (s string, takesUnbumped bool) {
	c := r.Comparison
	if c == nil || len(c.JudgeChanges) == 0 {
		return "", false
	}
	parts := make([]string, len(c.JudgeChanges))
	rejudged := false
	for i, ch := range c.JudgeChanges {
		parts[i] = ch.String()
		rejudged = rejudged || ch.Rejudgeable
	}
	s = "⚠ changed judge: " + strings.Join(parts, "; ")
	if rejudged && c.Rescored {
		s += ". The baseline's recorded outputs were re-judged by the new judge, and the comparison is like with like"
	} else {
		s += ". Only the provider's reported build changed: nothing could be re-judged, so judged scores may move without a change in the answers"
	}
	if o := c.OldJudge; o != nil {
		s += fmt.Sprintf(" (with the old judge's recorded baseline %.3f the change would read %s: mixed judges, not used for the verdict)", o.Base, signedPts(o.Delta))
	}
	if u := c.Unbumped; u != nil && rejudged && c.Rescored {
		// The judge is part of the rubric, so its change moved the rubric hash.
		s += fmt.Sprintf(". The judge is part of the scoring, whose version did not change (still %s; %s): %s", u.Version, u.Hashes(), u.Advice())
		takesUnbumped = true
	}
	return s, takesUnbumped
}

// signedPts is a delta in points with its sign: "−6.6 pts".
func signedPts(d float64) string {
	s := fmt.Sprintf("%+.1f pts", 100*d)
	return strings.Replace(s, "-", "−", 1)
}
