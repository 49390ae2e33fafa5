package ghaction

import "strconv"

// writeCheckOutputs sets the check mode outputs. Scores have 4 decimals; baseline-score
// and delta are empty without a baseline; report-path is relative to the workspace,
// which later steps see at another absolute path than this container.
func (r *runner) writeCheckOutputs(out *Outcome, commentURL string) {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
	base, delta := "", ""
	if out.HasBaseline {
		base, delta = num(out.BaselineScore), num(out.Delta)
	}
	r.cmd.setOutput("score", num(out.Score))
	r.cmd.setOutput("baseline-score", base)
	r.cmd.setOutput("delta", delta)
	r.cmd.setOutput("verdict", string(out.Verdict))
	r.cmd.setOutput("grade", out.Grade)
	r.cmd.setOutput("report-path", r.outputPath(out.ReportPath))
	r.cmd.setOutput("html-path", r.outputPath(out.HTMLPath))
	r.cmd.setOutput("comment-url", commentURL)
}

// outputPath returns p relative to the workspace when it lies inside, else as is.
func (r *runner) outputPath(p string) string {
	if p == "" {
		return ""
	}
	if rel, err := r.ws.repoPath(p); err == nil {
		return rel
	}
	return p
}
