package baseline

import (
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/rubric"
)

// OldJudge is the comparison with the baseline's figures as recorded, made by the
// judge the baseline was made with: mixed judges, so shown beside the like-for-like
// comparison (the baseline's outputs re-judged by the current judge) and never used
// for the verdict.
type OldJudge struct {
	// Base is the baseline's recorded mean score, Cand the candidate's over the
	// compared items, Delta their difference.
	Base  float64 `json:"baseline_score"`
	Cand  float64 `json:"candidate_score"`
	Delta float64 `json:"delta"`
	// Dimensions are the recorded per-dimension baseline means against the
	// candidate's, for the judged dimensions.
	Dimensions []DimensionDelta `json:"dimensions,omitempty"`
}

// judgeSides records what the comparison knows about judges: the baseline's
// reliability measurement where it is about the current judges (a dimension whose judge
// changed since is unmeasured: the old judge's figure is not borrowed), and, when the candidate's judges differ from the
// baseline's, the changes and the old-judge comparison beside the like-for-like one.
// A judge change changes the rubric hash, so the baseline's recorded outputs were
// re-judged by the new judge already (compareScored).
func judgeSides(c *Comparison, b *Baseline, sys *rubric.System) {
	c.JudgeChanges = reliability.Changes(b.Judges, sys.Fingerprints())
	var cur []reliability.Scored
	for _, i := range sys.JudgedDimensions() {
		d := sys.Dimensions[i]
		cur = append(cur, reliability.Scored{Name: d.Name, Judges: sys.DimensionJudges(i), Weight: d.Weight})
	}
	c.JudgeReliability, c.JudgeUnmeasured = reliability.Current(b.JudgeReliability, c.JudgeChanges, cur)
	if len(c.JudgeChanges) == 0 {
		c.JudgeCalibration = b.JudgeCalibration // the old judge's agreement says nothing of a new one
		return
	}
	old := &OldJudge{Base: b.Mean, Cand: c.Cand, Delta: c.Cand - b.Mean}
	judged := map[string]bool{}
	for _, i := range sys.JudgedDimensions() {
		judged[sys.Dimensions[i].Name] = true
	}
	for _, d := range c.Dimensions {
		if base, ok := b.Dimensions[d.Name]; ok && judged[d.Name] {
			old.Dimensions = append(old.Dimensions, DimensionDelta{Name: d.Name, Base: base, Cand: d.Cand, Delta: d.Cand - base})
		}
	}
	c.OldJudge = old
}
