package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/maphash"
	"iter"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/evalgate/evalgate/internal/jsonenc"
)

// itemIndex is Index's store: every item's id, hash, line, place in the whole suite
// and tags, in flat arrays without pointers, and a table from id to position. The
// garbage collector has nothing to trace in them.
type itemIndex struct {
	ids     []byte     // every id, back to back
	idEnd   []uint32   // end of item i's id in ids
	hash    [][32]byte // sha256 of the item's canonical JSON
	line    []int32
	pos     []int32
	tags    []uint32          // index into tagSets; 0: no tags
	tagSets [][]string        // interned tag lists; [0] is nil
	tagKey  map[string]uint32 // tag list, each tag after its length → index into tagSets
	oddHash map[int]string    // a hash that is not 64 lowercase hex digits (a hand-built item)
	table   []uint32          // open addressing: position + 1; 0 is an empty slot
	seed    maphash.Seed
}

func (x *itemIndex) len() int { return len(x.idEnd) }

// id is item i's id. It points into the arena, whose written bytes never change.
func (x *itemIndex) id(i int) string {
	start := uint32(0)
	if i > 0 {
		start = x.idEnd[i-1]
	}
	b := x.ids[start:x.idEnd[i]]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// find is the position of the item with the id.
func (x *itemIndex) find(id string) (int, bool) {
	if len(x.table) == 0 {
		return 0, false
	}
	mask := uint64(len(x.table) - 1)
	for h := maphash.String(x.seed, id) & mask; ; h = (h + 1) & mask {
		v := x.table[h]
		if v == 0 {
			return 0, false
		}
		if x.id(int(v-1)) == id {
			return int(v - 1), true
		}
	}
}

// place puts position i in the table (its id is not there yet).
func (x *itemIndex) place(i int) {
	mask := uint64(len(x.table) - 1)
	h := maphash.String(x.seed, x.id(i)) & mask
	for x.table[h] != 0 {
		h = (h + 1) & mask
	}
	x.table[h] = uint32(i + 1)
}

// add appends the item's compact state; the caller has refused a repeated id.
func (x *itemIndex) add(file string, it *Item) error {
	n := x.len()
	if len(x.ids)+len(it.ID) > math.MaxUint32 || n+1 >= math.MaxUint32/2 {
		return Errorf(file, it.Line, it.ID, "the suite's ids exceed 4 GiB; split the suite with --shard i/n")
	}
	if x.table == nil {
		x.seed = maphash.MakeSeed()
		x.table = make([]uint32, 64)
	}
	x.ids = append(x.ids, it.ID...)
	x.idEnd = append(x.idEnd, uint32(len(x.ids)))
	var h [32]byte
	if !decodeHash(&h, it.Hash) {
		if x.oddHash == nil {
			x.oddHash = map[int]string{}
		}
		x.oddHash[n] = it.Hash
	}
	x.hash = append(x.hash, h)
	x.line = append(x.line, int32(min(max(it.Line, 0), math.MaxInt32)))
	x.pos = append(x.pos, int32(min(max(it.Pos, 0), math.MaxInt32)))
	x.tags = append(x.tags, x.tagSet(it.Tags))
	if 2*(n+1) > len(x.table) { // keep the table at most half full
		x.table = make([]uint32, 2*len(x.table))
		for j := range n {
			x.place(j)
		}
	}
	x.place(n)
	return nil
}

// tagSet interns a tag list.
func (x *itemIndex) tagSet(tags []string) uint32 {
	if len(tags) == 0 {
		return 0
	}
	var kb strings.Builder // each tag after its length: no two lists share a key
	for _, t := range tags {
		kb.WriteString(strconv.Itoa(len(t)))
		kb.WriteByte(':')
		kb.WriteString(t)
	}
	key := kb.String()
	if k, ok := x.tagKey[key]; ok {
		return k
	}
	if x.tagKey == nil {
		x.tagKey = map[string]uint32{}
		x.tagSets = [][]string{nil}
	}
	k := uint32(len(x.tagSets))
	x.tagSets = append(x.tagSets, append([]string(nil), tags...)[:len(tags):len(tags)])
	x.tagKey[key] = k
	return k
}

// hashHex is item i's hash as the item carried it.
func (x *itemIndex) hashHex(i int) string {
	if s, ok := x.oddHash[i]; ok {
		return s
	}
	return hex.EncodeToString(x.hash[i][:])
}

// decodeHash reads a hash written as 64 lowercase hex digits (what Item.Hash holds),
// so that encoding it again gives the same text.
func decodeHash(dst *[32]byte, s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range dst {
		hi, lo := hexVal[s[2*i]], hexVal[s[2*i+1]]
		if hi|lo > 0xf {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

// hexVal is a lowercase hex digit's value; 0xff for any other byte.
var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c - '0'
	}
	for c := byte('a'); c <= 'f'; c++ {
		t[c] = c - 'a' + 10
	}
	return t
}()

// Index is a suite as every stage after scoring reads it: what it keeps of each item
// (id, hash, line, place in the whole suite, tags) in compact arrays, never the items
// themselves (their fields, prompt and context), which the scorer is handed by the
// Suite that holds them. A million items take about 70 bytes each. Use it by pointer.
type Index struct {
	Name string // `name` of a YAML suite, else the file's base name without extension
	File string
	Hash string // sha256 of the file's bytes; of the items' hashes for a suite built from results (Finish)
	idx  itemIndex
}

// NewIndex starts the index of a suite file's items (Add, then Finish for a suite built
// from results).
func NewIndex(file string) *Index { return &Index{File: file} }

// Add adds the item's entry, refusing a repeated id, and sets its Index (and its Pos,
// when 0) to its place.
func (x *Index) Add(it *Item) error {
	if prev, dup := x.idx.find(it.ID); dup {
		return Errorf(x.File, it.Line, it.ID, "duplicate id; first defined on line %d", x.idx.line[prev])
	}
	it.Index = x.Len()
	if it.Pos == 0 {
		it.Pos = it.Index
	}
	return x.idx.add(x.File, it)
}

// Len is the number of items.
func (x *Index) Len() int { return x.idx.len() }

// ID is item i's id.
func (x *Index) ID(i int) string { return x.idx.id(i) }

// Line is item i's line in its file.
func (x *Index) Line(i int) int { return int(x.idx.line[i]) }

// Tags is item i's tags (shared: the caller must not change them).
func (x *Index) Tags(i int) []string { return x.idx.tagSets0(x.idx.tags[i]) }

// Find is the position of the item with the id.
func (x *Index) Find(id string) (int, bool) { return x.idx.find(id) }

// At is item i's entry as an Item: its id, line, tags, hash and positions.
func (x *Index) At(i int) *Item {
	it := x.Brief(i)
	it.Hash = x.idx.hashHex(i)
	return it
}

// Brief is At without the hash (HashOf has it): what a report or a diagnosis reads of
// every item, without writing out a hash.
func (x *Index) Brief(i int) *Item { return x.BriefInto(i, new(Item)) }

// BriefInto is Brief, filling it.
func (x *Index) BriefInto(i int, it *Item) *Item {
	*it = Item{ID: x.idx.id(i), Line: int(x.idx.line[i]), Tags: x.idx.tagSets0(x.idx.tags[i]), Index: i, Pos: int(x.idx.pos[i])}
	return it
}

// HashOf is item i's hash (Item.Hash).
func (x *Index) HashOf(i int) string { return x.idx.hashHex(i) }

func (x *itemIndex) tagSets0(k uint32) []string {
	if k == 0 {
		return nil
	}
	return x.tagSets[k]
}

// All yields every item's entry in suite order (At).
func (x *Index) All() iter.Seq2[int, *Item] {
	return func(yield func(int, *Item) bool) {
		for i := range x.Len() {
			if !yield(i, x.At(i)) {
				return
			}
		}
	}
}

// Finish computes the hash of a suite built from results: it covers every item's
// fields, in order. It is the sha256 of the canonical JSON {"items":[hash, ...]},
// written piece by piece.
func (x *Index) Finish() {
	h := sha256.New()
	b := append(make([]byte, 0, 1<<12), `{"items":[`...)
	for i := range x.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		if hs, ok := x.idx.oddHash[i]; ok {
			b = jsonenc.AppendString(b, hs, true)
		} else {
			b = append(b, '"')
			b = hex.AppendEncode(b, x.idx.hash[i][:])
			b = append(b, '"')
		}
		if len(b) >= 1<<12-80 {
			h.Write(b)
			b = b[:0]
		}
	}
	b = append(b, "]}"...)
	h.Write(b)
	x.Hash = hex.EncodeToString(h.Sum(nil))
}
