package eval

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is one part of a suite split n ways for a CI matrix: item ids hash (FNV-1a, 64
// bits) into parts, so every shard is stable across runs and machines and the parts
// are balanced without coordination. Index is 1-based, as matrix values are.
type Shard struct {
	Index, Count int
}

// ParseShard reads "i/n" (1 <= i <= n).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("invalid shard %q; want i/n with 1 <= i <= n, e.g. 2/4", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// String is "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Has reports whether the item id belongs to the shard: FNV-1a 64 of the id, mod n,
// is i − 1.
func (s Shard) Has(id string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index-1)
}

// Subset is the suite's items that belong to the shard, in suite order. Each keeps its
// position in the whole suite (Item.Pos); the hash stays the whole suite's.
func (s *Suite) Subset(sh Shard) *Suite {
	out := newSuite(s.File)
	out.Name, out.Hash = s.Name, s.Hash
	for i := range s.Len() {
		if sh.Has(s.ID(i)) {
			c := *s.At(i)
			_ = out.AddItem(&c) // the ids are unique already
		}
	}
	return out
}
