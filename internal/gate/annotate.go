package gate

import "github.com/evalgate/evalgate/internal/baseline"

// annotate words what the verdict leaves to do and what the comparison must say about
// the gate itself: the command that re-runs the items that carried a regression
// decision that did not pass (Inputs.Rerun), and, among the comparison's notes, a
// baseline too thin to measure item stability and a deprecated method asked for.
func (v *Verdict) annotate(rg *Regression, cmp *baseline.Comparison, in Inputs) {
	if d := v.Regression; d != nil && d.Outcome != Pass && in.Rerun != nil && len(d.Evidence) > 0 {
		ids := make([]string, 0, len(d.Evidence))
		for _, e := range d.Evidence {
			ids = append(ids, e.ID)
		}
		d.RerunCommand, d.RerunHint = in.Rerun(ids)
	}
	if cmp == nil {
		return
	}
	if w := ThinBaseline(cmp.BaselineRuns); w != "" && v.Regression != nil {
		cmp.Notes = append(cmp.Notes, w)
	}
	if rg.Notice != "" {
		cmp.Notes = append(cmp.Notes, rg.Notice)
	}
}
