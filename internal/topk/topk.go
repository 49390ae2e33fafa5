// Package topk keeps the k best of a stream of values in O(log k) time per value and
// O(k) memory: the bounded lists a report shows of a suite of any size (the failing
// items, the items that moved most, the evidence that decided).
//
// Ranking is the caller's: better(a, b) reports whether a ranks above b. It must be a
// strict total order (break ties, e.g. on the suite position), so the kept values do
// not depend on anything but the values offered.
package topk

import (
	"container/heap"
	"slices"
)

// Keeper keeps the k best values offered to it. Create it with New.
type Keeper[T any] struct {
	k int
	h worstFirst[T]
}

// New returns a Keeper of at most k values ranked by better; k ≤ 0 keeps nothing.
func New[T any](k int, better func(a, b T) bool) *Keeper[T] {
	return &Keeper[T]{k: k, h: worstFirst[T]{better: better}}
}

// Offer considers v: it is kept while fewer than k values are, or when it ranks above
// the worst kept value, which it then replaces. It reports whether v was kept.
func (t *Keeper[T]) Offer(v T) bool {
	switch {
	case t.k <= 0:
		return false
	case len(t.h.s) < t.k:
		heap.Push(&t.h, v)
		return true
	case t.h.better(v, t.h.s[0]):
		t.h.s[0] = v
		heap.Fix(&t.h, 0)
		return true
	}
	return false
}

// Best returns a new slice of the kept values, best first (empty, not nil, when none).
func (t *Keeper[T]) Best() []T {
	out := append(make([]T, 0, len(t.h.s)), t.h.s...)
	slices.SortFunc(out, func(a, b T) int {
		switch {
		case t.h.better(a, b):
			return -1
		case t.h.better(b, a):
			return 1
		}
		return 0
	})
	return out
}

// Kept returns a new slice of the kept values in the order cmp gives (e.g. the suite's).
func (t *Keeper[T]) Kept(cmp func(a, b T) int) []T {
	out := append(make([]T, 0, len(t.h.s)), t.h.s...)
	slices.SortFunc(out, cmp)
	return out
}

// worstFirst is a heap whose root is the worst kept value: the one an offer replaces.
type worstFirst[T any] struct {
	s      []T
	better func(a, b T) bool
}

func (h worstFirst[T]) Len() int           { return len(h.s) }
func (h worstFirst[T]) Less(i, j int) bool { return h.better(h.s[j], h.s[i]) }
func (h worstFirst[T]) Swap(i, j int)      { h.s[i], h.s[j] = h.s[j], h.s[i] }
func (h *worstFirst[T]) Push(x any)        { h.s = append(h.s, x.(T)) }
func (h *worstFirst[T]) Pop() any {
	x := h.s[len(h.s)-1]
	h.s = h.s[:len(h.s)-1]
	return x
}
