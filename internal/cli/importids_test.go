package cli

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// keySet holds each key once, past its table's growth (1,024 slots, grown at 513 keys),
// and tells apart keys that differ only in their run.
func TestKeySet(t *testing.T) {
	var s keySet
	key := func(run int, id string) []byte { return append(binary.AppendUvarint(nil, uint64(run)), id...) }
	for i := range 5000 {
		if !s.add(key(i%2, fmt.Sprint(i/2))) {
			t.Fatalf("key %d: refused as a repeat before it was added", i)
		}
	}
	// 5,000 keys: runs 0 and 1 each hold ids 0..2499.
	for i := range 5000 {
		if s.add(key(i%2, fmt.Sprint(i/2))) {
			t.Fatalf("key %d: added twice", i)
		}
	}
	if !s.add(key(2, "0")) || !s.add(key(0, "")) || s.add(key(0, "")) {
		t.Error("a new run's id, or the empty id, is not told apart")
	}
	if len(s.ends) != 5002 || len(s.table) < 2*len(s.ends) {
		t.Errorf("%d keys in a table of %d; want 5,002 in one at most half full", len(s.ends), len(s.table))
	}
}
