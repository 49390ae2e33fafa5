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

// Bad input leaves nothing behind: not a results file, and not the --out-dir import
// made for them (an empty directory where the user asked for the conversion). A
// directory that was there before stays.
func TestImportBadInputLeavesNoDirectory(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "pf.jsonl")
	good := `{"testCase":{"description":"a","vars":{"q":"1"}},"promptIdx":0,"provider":{"id":"echo"},"prompt":{"raw":"1"},"response":{"output":"1"},"success":true,"score":1}`
	bad := `{"testCase":{"description":"b","vars":{"q":"2"}},"promptIdx":0,"provider":{"id":"echo"},"prompt":{"raw":"2"},"success":true,"score":1}`
	if err := os.WriteFile(in, []byte(good+"\n"+bad+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "conv", "pf")
	if _, err := importFile(in, out, importer.Options{}); err == nil {
		t.Fatal("a record with no response was imported")
	}
	if _, err := os.Stat(filepath.Join(dir, "conv")); !os.IsNotExist(err) {
		t.Errorf("after the error, %s is there (%v); want nothing written", filepath.Join(dir, "conv"), err)
	}
	existing := filepath.Join(dir, "kept")
	os.Mkdir(existing, 0o755)
	if _, err := importFile(in, existing, importer.Options{}); err == nil {
		t.Fatal("a record with no response was imported")
	}
	if entries, err := os.ReadDir(existing); err != nil || len(entries) != 0 {
		t.Errorf("the existing --out-dir: %v, %v; want it kept, empty", entries, err)
	}
}
