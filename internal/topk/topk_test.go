package topk

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// item is a value at a position; higher values rank first, ties the earlier position.
type item struct{ v, pos int }

func better(a, b item) bool {
	if a.v != b.v {
		return a.v > b.v
	}
	return a.pos < b.pos
}

func TestKeepsTheKBestInRankOrder(t *testing.T) {
	k := New(3, better)
	for i, v := range []int{5, 1, 9, 5, 7, 9, 2} {
		k.Offer(item{v, i})
	}
	// By hand: values 9@2, 9@5, 7@4 rank above 5@0, 5@3 (ties: the earlier 9 first).
	want := []item{{9, 2}, {9, 5}, {7, 4}}
	if diff := cmp.Diff(want, k.Best(), cmp.AllowUnexported(item{})); diff != "" {
		t.Fatalf("Best (-want +got):\n%s", diff)
	}
	bySuite := k.Kept(func(a, b item) int { return a.pos - b.pos })
	if diff := cmp.Diff([]item{{9, 2}, {7, 4}, {9, 5}}, bySuite, cmp.AllowUnexported(item{})); diff != "" {
		t.Fatalf("Kept in suite order (-want +got):\n%s", diff)
	}
	if !k.Full() || k.Len() != 3 || k.Worst() != (item{7, 4}) {
		t.Fatalf("Full %v, Len %d, Worst %v; want true, 3, {7 4}", k.Full(), k.Len(), k.Worst())
	}
}

func TestTiesKeepTheEarlier(t *testing.T) {
	k := New(2, better)
	for i := range 5 {
		if kept := k.Offer(item{1, i}); kept != (i < 2) {
			t.Fatalf("offer %d kept = %v; only the first two equal values are kept", i, kept)
		}
	}
	if got := k.Best(); got[0].pos != 0 || got[1].pos != 1 {
		t.Fatalf("kept %v; want positions 0 and 1", got)
	}
}

func TestNothingKeptForKZero(t *testing.T) {
	k := New(0, better)
	if k.Offer(item{1, 0}) || k.Len() != 0 || k.Full() || len(k.Best()) != 0 {
		t.Fatal("a keeper of 0 values kept one")
	}
}

// The kept values are those a full sort would put first, for any input and any k.
func TestAgreesWithSortingEverything(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n, kk := r.IntN(60), r.IntN(12)
		all := make([]item, n)
		k := New(kk, better)
		for i := range all {
			all[i] = item{r.IntN(8), i} // few distinct values: many ties
			k.Offer(all[i])
		}
		slices.SortFunc(all, func(a, b item) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		want := all[:min(kk, n)]
		if diff := cmp.Diff(want, k.Best(), cmp.AllowUnexported(item{}), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("trial %d (n %d, k %d) (-sorted +kept):\n%s", trial, n, kk, diff)
		}
	}
}

// What the tests read of a Keeper besides Best.

// Full reports whether k values are kept, so an offer must beat Worst to be kept.
func (t *Keeper[T]) Full() bool { return t.k > 0 && len(t.h.s) == t.k }

// Worst is the lowest-ranked kept value; call it only when Len() > 0.
func (t *Keeper[T]) Worst() T { return t.h.s[0] }

// Len is how many values are kept.
func (t *Keeper[T]) Len() int { return len(t.h.s) }
