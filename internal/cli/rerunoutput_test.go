package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tool's output folder is walked to a bound: a folder of more entries than the
// bound is refused, not read to its end; within it, the one results file is found.
func TestRerunOutputIsBounded(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.log", "b.log", "rerun.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// 4 entries: the folder and its 3 files.
	if got, err := rerunOutputWithin(dir, 4); err != nil || filepath.Base(got) != "rerun.json" {
		t.Errorf("within the bound: %q, %v; want rerun.json", got, err)
	}
	if _, err := rerunOutputWithin(dir, 3); err == nil || !strings.Contains(err.Error(), "more than 3 entries") {
		t.Errorf("over the bound: %v; want the bound named", err)
	}
}
