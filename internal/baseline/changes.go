package baseline

import (
	"container/heap"
	"sort"
)

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
// ones with the largest move.
type changeList struct {
	limit int
	n     int
	kept  changeHeap
}

type keptChange struct {
	ch   ItemChange
	pos  int
	move float64
}

// add offers the change of the item at pos (in suite order) that moved by move.
func (l *changeList) add(ch ItemChange, pos int, move float64) {
	l.n++
	k := keptChange{ch: ch, pos: pos, move: move}
	switch {
	case len(l.kept) < l.limit:
		l.kept = append(l.kept, k)
		if len(l.kept) == l.limit {
			heap.Init(&l.kept)
		}
	case l.kept.less(l.kept[0], k):
		l.kept[0] = k
		heap.Fix(&l.kept, 0)
	}
}

// list is the kept changes in suite order, and the count of all of them when some were
// left out (0 otherwise).
func (l *changeList) list() ([]ItemChange, int) {
	if l.n == 0 {
		return nil, 0
	}
	sort.Slice(l.kept, func(i, j int) bool { return l.kept[i].pos < l.kept[j].pos })
	out := make([]ItemChange, len(l.kept))
	for i, k := range l.kept {
		out[i] = k.ch
	}
	if l.n > len(out) {
		return out, l.n
	}
	return out, 0
}

// changeHeap is a min-heap of kept changes: the root is the one to drop first (the
// smallest move; among equal moves, the latest in the suite).
type changeHeap []keptChange

func (changeHeap) less(a, b keptChange) bool {
	if a.move != b.move {
		return a.move < b.move
	}
	return a.pos > b.pos
}
func (h changeHeap) Len() int           { return len(h) }
func (h changeHeap) Less(i, j int) bool { return h.less(h[i], h[j]) }
func (h changeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *changeHeap) Push(x any)        { *h = append(*h, x.(keptChange)) }
func (h *changeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
