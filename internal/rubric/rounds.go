package rubric

import "math"

// ItemRounds is one item's scores split by the kind of run: the full runs, which
// scored the whole suite, and the re-runs of some items (partial runs: the rounds of
// settling an inconclusive verdict, or files given with --rerun), each a fresh draw of
// the item taken after the full runs had pointed at it.
type ItemRounds struct {
	// Full is the item's mean score over the full runs it was scored in, FullRuns how
	// many (pending samples left out).
	Full     float64
	FullRuns int
	// Rounds is the item's score in each partial run, in run order; NaN where the
	// re-run left the item out or its sample was pending.
	Rounds []float64
}

// HasRounds says some run of the scoring is a re-run of some items.
func (sc *Scored) HasRounds() bool {
	for _, c := range sc.cols {
		if c.partial {
			return true
		}
	}
	return false
}

// RoundsOf is item i's scores by kind of run, rebuilt from the columns into sm and
// rounds (scratch space the caller may reuse); ok is false when no re-run scored the
// item (its scores are the full runs' alone). The returned Rounds alias rounds.
func (sc *Scored) RoundsOf(i int, sm *Sample, rounds []float64) (ItemRounds, bool) {
	in := false
	for _, c := range sc.cols {
		if c.partial && c.flags[i]&fPresent != 0 && c.flags[i]&fPending == 0 {
			in = true
			break
		}
	}
	if !in {
		return ItemRounds{}, false
	}
	out := ItemRounds{Rounds: rounds[:0]}
	var sum float64
	for _, c := range sc.cols {
		if c.partial {
			v := math.NaN()
			if c.flags[i]&fPresent != 0 && c.flags[i]&fPending == 0 {
				c.sample(sc.System, i, sm)
				v = sm.Score
			}
			out.Rounds = append(out.Rounds, v)
			continue
		}
		c.sample(sc.System, i, sm)
		if sm.Pending {
			continue
		}
		sum += sm.Score
		out.FullRuns++
	}
	if out.FullRuns > 0 {
		out.Full = Round9(sum / float64(out.FullRuns))
	}
	return out, true
}
