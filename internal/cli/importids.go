package cli

import (
	"bytes"
	"hash/maphash"
)

// keySet is a set of byte strings kept compact for `import`'s million-record files: the
// keys back to back in one arena, their ends, and an open-addressing table of positions,
// about 12 bytes a key beside the key itself and nothing for the garbage collector to
// trace (a map[string]bool of "run\x00id" keys held about 100 bytes a record, and a
// pointer each). It grows with the records, as check's item index does, never with what
// a record holds.
type keySet struct {
	arena []byte
	ends  []int
	table []uint32 // position + 1; 0 is an empty slot
	seed  maphash.Seed
}

func (s *keySet) key(i int) []byte {
	start := 0
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.arena[start:s.ends[i]]
}

// add puts key in the set; false when it was there already.
func (s *keySet) add(key []byte) bool {
	if s.table == nil {
		s.seed = maphash.MakeSeed()
		s.table = make([]uint32, 1024)
	}
	mask := uint64(len(s.table) - 1)
	h := maphash.Bytes(s.seed, key) & mask
	for ; s.table[h] != 0; h = (h + 1) & mask {
		if bytes.Equal(s.key(int(s.table[h]-1)), key) {
			return false
		}
	}
	s.arena = append(s.arena, key...)
	s.ends = append(s.ends, len(s.arena))
	s.table[h] = uint32(len(s.ends))
	if 2*len(s.ends) > len(s.table) { // at most half full
		s.grow()
	}
	return true
}

func (s *keySet) grow() {
	s.table = make([]uint32, 2*len(s.table))
	mask := uint64(len(s.table) - 1)
	for i := range s.ends {
		h := maphash.Bytes(s.seed, s.key(i)) & mask
		for s.table[h] != 0 {
			h = (h + 1) & mask
		}
		s.table[h] = uint32(i + 1)
	}
}
