package baseline

import (
	"context"
	"fmt"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/rubric"
)

// PanelMoments are the z-normalizing panels' reviewer moments a check standardizes
// with: the ones the baseline recorded, except for a panel one of whose reviewers'
// judge changed its configuration since (model, template, parameters). Those moments
// are the old judge's, and would keep the new judge's bias (a reviewer now scoring 2
// higher would be standardized by the old one's mean), so that panel's moments are
// measured again on the baseline's recorded outputs judged by the current reviewers:
// the re-judging the comparison makes anyway, through the judge cache. sys must have
// no panel moments yet; it is left with none. suiteOf gives the suite the recorded
// outputs answer, read only when needed. changed names the panels measured again.
func PanelMoments(ctx context.Context, r *Reader, path string, sys *rubric.System, suiteOf func() (*eval.Suite, error)) (m map[string]reliability.Panel, changed []string, err error) {
	h := r.Header()
	m = h.PanelMoments
	rejudge := map[string]bool{}
	for _, c := range reliability.Changes(h.Judges, sys.Fingerprints()) {
		if c.Rejudgeable {
			rejudge[c.Judge] = true
		}
	}
	if len(m) == 0 || len(rejudge) == 0 {
		return m, nil, nil
	}
	for _, d := range sys.JudgedDimensions() {
		name := sys.Dimensions[d].Name
		if _, ok := m[name]; !ok {
			continue
		}
		for _, j := range sys.DimensionJudges(d) {
			if rejudge[j] {
				changed = append(changed, name)
				break
			}
		}
	}
	if len(changed) == 0 {
		return m, nil, nil
	}
	suite, err := suiteOf()
	if err != nil || suite == nil {
		return nil, nil, err
	}
	var runs int
	srcs := recordedSources(r.recorded(), suite, path, max(len(h.Runs), 1), &runs)
	if _, err := rubric.ScoreRuns(ctx, sys, suite, srcs, rubric.ScoreOptions{}); err != nil {
		return nil, nil, fmt.Errorf("measuring the changed reviewers' moments on baseline %s: %w", path, err)
	}
	observed := sys.ObservedPanelMoments()
	out := make(map[string]reliability.Panel, len(m))
	for k, v := range m {
		out[k] = v
	}
	for _, name := range changed {
		if o := observed[name]; o.Pooled.N > 0 {
			out[name] = o
		}
	}
	sys.SetPanelMoments(nil) // observed afresh by the candidate's scoring
	return out, changed, nil
}
