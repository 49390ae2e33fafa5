package cli

import (
	"path/filepath"
	"testing"
)

// The settle hint's re-run file goes where no results pattern of the check reads it.
func TestRerunOut(t *testing.T) {
	abs, err := filepath.Abs("*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		results []string
		want    string
	}{
		{[]string{"runs/pr/*.jsonl"}, "rerun1.jsonl"},
		{[]string{"pr*.jsonl", "-"}, "rerun1.jsonl"},
		{[]string{"*.jsonl"}, "reruns/rerun1.jsonl"},
		{[]string{"./*run*.jsonl"}, "reruns/rerun1.jsonl"},
		{[]string{abs}, "reruns/rerun1.jsonl"},            // the same pattern, absolute
		{[]string{"rerun1.jsonl"}, "reruns/rerun1.jsonl"}, // a file of that name
		{[]string{"**/*.jsonl"}, "rerun1.jsonl"},          // reads everything: nothing avoids it
		{[]string{"reruns/**/*.jsonl"}, "rerun1.jsonl"},
	} {
		if got := rerunOut(1, tt.results, nil); got != tt.want {
			t.Errorf("rerunOut(1, %q) = %s; want %s", tt.results, got, tt.want)
		}
	}
	if got := globRoot("/a/b/**/c*.jsonl"); got != filepath.FromSlash("/a/b") {
		t.Errorf("globRoot = %s", got)
	}
}
