package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSuiteIndexKeepsReleasedItems: a released item is gone from the suite (At is nil)
// and reads back from its Index with its id, line, tags, hash and positions; lookups
// find every id through the table's growth; a repeated id is refused with the first
// one's line.
func TestSuiteIndexKeepsReleasedItems(t *testing.T) {
	s := NewSuite("r.jsonl")
	const n = 5000 // the table doubles from 64 slots about seven times
	var want []Item
	for i := range n {
		fields := map[string]any{"id": fmt.Sprintf("item-%d", i), "prompt": "p", "x": float64(i)}
		switch {
		case i == 1:
			fields["tags"] = []any{"a\x000"} // one tag holding a NUL: not the list ["a", "0"]
		case i%3 == 0:
			fields["tags"] = []any{"a", fmt.Sprint(i % 2)}
		}
		it, err := newItem("r.jsonl", i+1, fields)
		if err != nil {
			t.Fatal(err)
		}
		switch i {
		case 7:
			it.Hash = "not-hex" // a hand-built item's hash is kept as it is
		case 9:
			it.Hash = strings.ToUpper(it.Hash) // 64 digits, but decoding would not give it back
		}
		if err := s.AddItem(it); err != nil {
			t.Fatal(err)
		}
		want = append(want, Item{ID: it.ID, Line: it.Line, Tags: it.Tags, Hash: it.Hash, Index: i, Pos: i})
	}
	if got := s.At(3); got.Fields == nil || got.Prompt != "p" {
		t.Fatalf("item not released yet lost its fields: %+v", got)
	}
	s.Release(3)
	if got, ok := s.Item("item-3"); !ok || got != nil || s.At(4) == nil {
		t.Fatalf("released item 3: %+v, %v; item 4 held: %v", got, ok, s.At(4) != nil)
	}
	s.ReleaseAll()
	for i := range n {
		if s.At(i) != nil {
			t.Fatalf("item %d is held after ReleaseAll", i)
		}
		got := s.Index.At(i)
		if diff := cmp.Diff(&want[i], got); diff != "" {
			t.Fatalf("item %d (-want +got):\n%s", i, diff)
		}
		if j, ok := s.Find(want[i].ID); !ok || j != i {
			t.Fatalf("Index(%q) = %d, %v; want %d", want[i].ID, j, ok, i)
		}
		if !cmp.Equal(s.Tags(i), want[i].Tags) || s.Line(i) != i+1 {
			t.Fatalf("item %d: tags %v line %d", i, s.Tags(i), s.Line(i))
		}
	}
	if _, ok := s.Item("item-5000"); ok {
		t.Error("found an id never added")
	}
	err := s.AddItem(&Item{ID: "item-42", Line: 9999})
	if err == nil || err.Error() != `r.jsonl:9999: item "item-42": duplicate id; first defined on line 43` {
		t.Errorf("repeated id: %v", err)
	}
}

// TestSuiteFinishHashesItemsInOrder: the suite hash built piece by piece equals the
// sha256 of the canonical JSON {"items": [hash, ...]} the suite hash is defined as.
func TestSuiteFinishHashesItemsInOrder(t *testing.T) {
	s := NewSuite("r.jsonl")
	var hashes []any
	for i := range 300 { // several 4 KiB pieces
		it, err := newItem("r.jsonl", i+1, map[string]any{"id": fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		if i == 5 {
			it.Hash = `odd "<hash>"` // escaped as json.Marshal does
		}
		hashes = append(hashes, it.Hash)
		if err := s.AddItem(it); err != nil {
			t.Fatal(err)
		}
	}
	s.Finish()
	if want := hashFields(map[string]any{"items": hashes}); s.Hash != want {
		t.Errorf("suite hash %s; want %s", s.Hash, want)
	}
}
