package baseline

import "github.com/evalgate/evalgate/internal/topk"

// MaxItemChanges caps each of a comparison's NewlyFailing, NewlyPassing and Unstable
// lists: past it a list keeps the MaxItemChanges items that moved most (ties: the
// earlier in the suite), still in suite order, and its *Count field says how many
// there were. A million-item suite that regresses everywhere lists 10,000 items, not a
// million.
const MaxItemChanges = 10_000

// NumNewlyFailing is how many items newly fail, listed or not.
func (c *Comparison) NumNewlyFailing() int { return max(c.NewlyFailingCount, len(c.NewlyFailing)) }

// NumNewlyPassing is how many items newly pass, listed or not.
func (c *Comparison) NumNewlyPassing() int { return max(c.NewlyPassingCount, len(c.NewlyPassing)) }

// NumUnstable is how many compared items were unstable in the baseline, listed or not.
func (c *Comparison) NumUnstable() int { return max(c.UnstableCount, len(c.Unstable)) }

// changeList collects item changes in suite order, keeping at most limit of them: the
// ones with the largest move (ties: the earlier in the suite).
type changeList struct {
	limit int
	n     int
	kept  *topk.Keeper[keptChange]
}

type keptChange struct {
	ch   ItemChange
	pos  int
	move float64
}

// movedMore ranks the larger move first; among equal moves, the earlier in the suite.
func movedMore(a, b keptChange) bool {
	if a.move != b.move {
		return a.move > b.move
	}
	return a.pos < b.pos
}

// add offers the change of the item at pos (in suite order) that moved by move.
func (l *changeList) add(ch ItemChange, pos int, move float64) {
	if l.kept == nil {
		l.kept = topk.New(l.limit, movedMore)
	}
	l.n++
	l.kept.Offer(keptChange{ch: ch, pos: pos, move: move})
}

// list is the kept changes in suite order, and the count of all of them when some were
// left out (0 otherwise).
func (l *changeList) list() ([]ItemChange, int) {
	if l.n == 0 {
		return nil, 0
	}
	kept := l.kept.Kept(func(a, b keptChange) int { return a.pos - b.pos })
	out := make([]ItemChange, len(kept))
	for i, k := range kept {
		out[i] = k.ch
	}
	if l.n > len(out) {
		return out, l.n
	}
	return out, 0
}
