package ghaction

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/internal/github"
)

// CopyBaseline copies a baseline with its history (x.history.jsonl, when the commit has
// one) and the recorded outputs file its header names, read beside it in the
// repository; a name that is not a plain name beside it is never read, and an outputs
// file the commit lacks is left out.
func TestCopyBaseline(t *testing.T) {
	t.Parallel()
	commit := map[string]string{"baselines/x.outputs.jsonl.gz": "gz", "secret": "no", "baselines/x.history.jsonl": "h"}
	for _, tt := range []struct {
		name, header string
		wantRead     []string // what was read besides the baseline
		wantFiles    []string // the directory's files
	}{
		{"outputs file beside", `{"schema_version":2,"outputs_file":"x.outputs.jsonl.gz"}`, []string{"baselines/x.history.jsonl", "baselines/x.outputs.jsonl.gz"}, []string{"x.history.jsonl", "x.jsonl", "x.outputs.jsonl.gz"}},
		{"inline outputs", `{"schema_version":2}`, []string{"baselines/x.history.jsonl"}, []string{"x.history.jsonl", "x.jsonl"}},
		{"leaves the directory", `{"schema_version":2,"outputs_file":"../secret"}`, []string{"baselines/x.history.jsonl"}, []string{"x.history.jsonl", "x.jsonl"}},
		{"hidden", `{"schema_version":2,"outputs_file":".x"}`, []string{"baselines/x.history.jsonl"}, []string{"x.history.jsonl", "x.jsonl"}},
		{"missing at the commit", `{"schema_version":2,"outputs_file":"y.gz"}`, []string{"baselines/x.history.jsonl", "baselines/y.gz"}, []string{"x.history.jsonl", "x.jsonl"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var read []string
			rd := func(_ context.Context, p string) ([]byte, error) {
				read = append(read, p)
				if s, ok := commit[p]; ok {
					return []byte(s), nil
				}
				return nil, github.ErrNotFound
			}
			dir := t.TempDir()
			p, err := CopyBaseline(context.Background(), rd, "baselines/x.jsonl", []byte(tt.header+"\n"), dir)
			if err != nil || p != filepath.Join(dir, "x.jsonl") {
				t.Fatalf("CopyBaseline = %q, %v", p, err)
			}
			if !slices.Equal(read, tt.wantRead) {
				t.Errorf("read %q; want %q", read, tt.wantRead)
			}
			var got []string
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				got = append(got, e.Name())
			}
			if !slices.Equal(got, tt.wantFiles) {
				t.Errorf("files %q; want %q", got, tt.wantFiles)
			}
		})
	}
}
