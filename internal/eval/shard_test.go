package eval

import (
	"fmt"
	"testing"
)

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/4"); err != nil || s != (Shard{2, 4}) || s.String() != "2/4" {
		t.Fatalf("2/4: %v %v", s, err)
	}
	for _, bad := range []string{"", "0/4", "5/4", "1/0", "a/b", "1", "1/2/3", "-1/2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestShardHas: every id is in exactly one of n shards, the split is FNV-1a 64 mod n
// (checked against a value computed by hand: FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c,
// whose remainder mod 4 is 0, so "a" is in shard 1/4), and 4 shards of 10,000 ids are
// balanced within 5%.
func TestShardHas(t *testing.T) {
	if !(Shard{1, 4}).Has("a") || (Shard{2, 4}).Has("a") {
		t.Fatal(`"a" should be in shard 1/4 only`)
	}
	counts := make([]int, 4)
	for i := range 10000 {
		id := fmt.Sprintf("conj-%06d", i)
		in := 0
		for k := 1; k <= 4; k++ {
			if (Shard{k, 4}).Has(id) {
				in++
				counts[k-1]++
			}
		}
		if in != 1 {
			t.Fatalf("%s is in %d shards", id, in)
		}
	}
	for k, c := range counts {
		if c < 2375 || c > 2625 {
			t.Errorf("shard %d/4 has %d of 10000 ids; want 2500 ± 5%%", k+1, c)
		}
	}
}

// FuzzParseShard: a --shard value (a CI matrix's, outside input) is refused or a part
// 1 <= i <= n that writes back as itself, and every id falls in exactly one of its n
// parts (checked for n up to 64).
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"2/4", "1/1", " 3/3 ", "0/4", "5/4", "-1/2", "1/-1", "+1/2", "1/9223372036854775807", "a/b", "1/2/3"} {
		f.Add(s, "item-7")
	}
	f.Fuzz(func(t *testing.T, s, id string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.Index < 1 || sh.Index > sh.Count {
			t.Fatalf("ParseShard(%q) = %+v", s, sh)
		}
		if back, err := ParseShard(sh.String()); err != nil || back != sh {
			t.Fatalf("ParseShard(%q).String() = %q reads back as %+v, %v", s, sh.String(), back, err)
		}
		if sh.Count > 64 {
			return
		}
		in := 0
		for i := 1; i <= sh.Count; i++ {
			if (Shard{Index: i, Count: sh.Count}).Has(id) {
				in++
			}
		}
		if in != 1 {
			t.Fatalf("id %q is in %d of the %d parts", id, in, sh.Count)
		}
	})
}
