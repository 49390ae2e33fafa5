package rubric

import (
	"runtime"
	"strings"
	"testing"
)

// TestCheckMemory: a live heap over the limit stops the scoring with an error that
// names the place and the ways out; under it, nothing happens.
func TestCheckMemory(t *testing.T) {
	runtime.GC() // the live heap is read as of the last collection
	err := checkMemory(1, "runs/a.jsonl", 7, 16384)
	if err == nil || !strings.Contains(err.Error(), "runs/a.jsonl:7:") || !strings.Contains(err.Error(), "--max-memory") || !strings.Contains(err.Error(), "--shard") {
		t.Fatalf("limit 1 byte: got %v; want an error naming the file, --max-memory and --shard", err)
	}
	if err := checkMemory(1<<40, "runs/a.jsonl", 7, 16384); err != nil {
		t.Fatalf("limit 1 TiB: %v", err)
	}
}
