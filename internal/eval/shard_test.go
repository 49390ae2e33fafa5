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
