package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A shard's report is read to maxShardReportBytes and no further (the action's report
// input may name what a pull request's jobs wrote): a longer file is refused, saying
// so. Not parallel: it lowers the bound.
func TestReadShardReportIsBounded(t *testing.T) {
	defer func(n int64) { maxShardReportBytes = n }(maxShardReportBytes)
	maxShardReportBytes = 1 << 10
	path := filepath.Join(t.TempDir(), "shard.json")
	long := `{"suite":"` + strings.Repeat("x", 4<<10) + `"}`
	if err := os.WriteFile(path, []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadShardReport(path); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("ReadShardReport of a report over the bound: %v; want it refused as larger", err)
	}
	if err := os.WriteFile(path, []byte(`{"suite":"s"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadShardReport(path); err == nil || !strings.Contains(err.Error(), "no shard_state") {
		t.Errorf("ReadShardReport of a short report without a shard's state: %v", err)
	}
}
