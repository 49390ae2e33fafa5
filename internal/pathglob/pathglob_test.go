package pathglob

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGlob(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"r/run1.jsonl", "r/run2.jsonl", "r/a/b/run3.jsonl", "r/notes.md"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "r", "dir.jsonl"), 0o755); err != nil { // a directory is never a results file
		t.Fatal(err)
	}
	abs := func(ps ...string) []string {
		for i, p := range ps {
			ps[i] = filepath.Join(root, p)
		}
		return ps
	}
	tests := []struct {
		pattern string
		want    []string
	}{
		{"r/run*.jsonl", abs("r/run1.jsonl", "r/run2.jsonl")},
		{"r/*.jsonl", abs("r/run1.jsonl", "r/run2.jsonl")},
		{"r/**/*.jsonl", abs("r/a/b/run3.jsonl", "r/run1.jsonl", "r/run2.jsonl")}, // ** is zero or more directories
		{"r/**/b/*.jsonl", abs("r/a/b/run3.jsonl")},
		{"r/run[2-9].jsonl", abs("r/run2.jsonl")},
		{"r/*.csv", nil},
	}
	for _, tt := range tests {
		got, err := Glob(filepath.Join(root, tt.pattern))
		if err != nil {
			t.Errorf("%s: %v", tt.pattern, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.pattern, diff)
		}
	}
	if _, err := Glob(filepath.Join(root, "r/**/[.jsonl")); err == nil {
		t.Error("a malformed pattern is accepted")
	}
	if HasMeta("r/run1.jsonl") || !HasMeta("r/run?.jsonl") {
		t.Error("HasMeta")
	}
}
