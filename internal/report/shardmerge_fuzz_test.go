package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/rubric"
)

// FuzzMergeShards: two shards' reports as files (the action's `report` input, merge's
// arguments) are read and joined without a panic or a hang, whatever they hold: a
// merge or an error. The seeds are a pair that merges and that pair cut short.
func FuzzMergeShards(f *testing.F) {
	sys := &rubric.System{}
	a, err := json.Marshal(shardReport(sys, "s1.json", 1, 2, 0, 2))
	if err != nil {
		f.Fatal(err)
	}
	b, err := json.Marshal(shardReport(sys, "s2.json", 2, 2, 1))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(a, b)
	f.Add(a[:len(a)/2], b)
	f.Add(b, b)
	f.Add([]byte(`{"shard_state":{"shard":"1/1","items":[{"pos":-5}]}}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		dir := t.TempDir()
		p1, p2 := filepath.Join(dir, "s1.json"), filepath.Join(dir, "s2.json")
		if err := os.WriteFile(p1, x, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p2, y, 0o600); err != nil {
			t.Fatal(err)
		}
		m, err := MergeShards(sys, []string{p1, p2}, nil)
		if err == nil && m == nil {
			t.Fatal("no merge and no error")
		}
	})
}
