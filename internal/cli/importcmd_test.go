package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/importer"
)

// The files import writes are readable by others (0644), as every other file evalgate
// writes: a workflow step under another user (the action's image runs as 65532) reads
// them. They are written to temporary files first, which os.CreateTemp makes 0600.
func TestImportWritesReadableFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "pf.jsonl")
	rec := `{"testCase":{"description":"a","vars":{"q":"1"}},"promptIdx":0,"provider":{"id":"echo"},"prompt":{"raw":"1"},"response":{"output":"1"},"success":true,"score":1}` + "\n"
	if err := os.WriteFile(in, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "conv")
	if _, err := importFile(in, out, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"results.jsonl", "suite.jsonl"} {
		st, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v; want -rw-r--r--", name, st.Mode().Perm())
		}
	}
}
