package baseline

import "math"

// baseScores is the baseline score of each candidate item the baseline has, kept for
// the report's item table: one number per item by the candidate's position (NaN: the
// baseline lacks the item), and the candidate's id lookup.
type baseScores struct {
	score []float64
	find  func(id string) (int, string, bool)
}

func newBaseScores(cs candSide) *baseScores {
	s := &baseScores{score: make([]float64, cs.n), find: cs.find}
	for i := range s.score {
		s.score[i] = math.NaN()
	}
	return s
}

// BaseScore is the baseline's score of item id (re-scored under the candidate's rubric
// when the scoring changed; for an item that changed since the baseline, its old
// version's), and whether the baseline has the item. A comparison read back from JSON
// knows only the items its lists name.
func (c *Comparison) BaseScore(id string) (float64, bool) {
	if s := c.baseScores; s != nil {
		if i, _, ok := s.find(id); ok && i < len(s.score) && !math.IsNaN(s.score[i]) {
			return s.score[i], true
		}
		return 0, false
	}
	for _, l := range [][]ItemChange{c.NewlyFailing, c.NewlyPassing, c.Unstable, c.BiggestDrops} {
		for _, ch := range l {
			if ch.ID == id {
				return ch.BaseScore, true
			}
		}
	}
	return 0, false
}
