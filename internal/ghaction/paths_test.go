package ghaction

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpandResults(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"suite/runs/1.jsonl", "suite/runs/2.jsonl", "suite/runs/old/0.jsonl", "suite/runs/notes.md", "suite/evalgate.yaml"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := newWorkspace(root, "suite")
	if err != nil {
		t.Fatal(err)
	}
	abs := func(ps ...string) []string {
		for i, p := range ps {
			ps[i] = filepath.Join(root, "suite", p)
		}
		return ps
	}
	tests := []struct {
		patterns []string
		want     []string
	}{
		{[]string{"runs/*.jsonl"}, abs("runs/1.jsonl", "runs/2.jsonl")},
		{[]string{"runs/**/*.jsonl"}, abs("runs/1.jsonl", "runs/2.jsonl", "runs/old/0.jsonl")},
		{[]string{"runs/2.jsonl", "runs/*.jsonl"}, abs("runs/1.jsonl", "runs/2.jsonl")}, // sorted, distinct
		{nil, nil},
	}
	for _, tt := range tests {
		got, err := ws.expandResults(tt.patterns)
		if err != nil {
			t.Errorf("%q: %v", tt.patterns, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.patterns, diff)
		}
	}
	_, err = ws.expandResults([]string{"runs/*.json"})
	var ie *InputError
	if !errors.As(err, &ie) || ie.Input != "results" {
		t.Errorf("no match: err = %v, want an error on input results", err)
	}
}

func TestWorkspacePaths(t *testing.T) {
	t.Parallel()
	ws, err := newWorkspace("/github/workspace", "examples/tutor")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		{"evalgate.yaml", "examples/tutor/evalgate.yaml"},
		{"../../baselines/tutor.json", "baselines/tutor.json"},
		{"/github/workspace/report.md", "report.md"},
	}
	for _, tt := range tests {
		if got, err := ws.repoPath(tt.in); err != nil || got != tt.want {
			t.Errorf("repoPath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := ws.repoPath("../../../etc/passwd"); err == nil {
		t.Error("a path outside the workspace was accepted")
	}
	if _, err := newWorkspace("/github/workspace", "../elsewhere"); err == nil {
		t.Error("a working directory outside the workspace was accepted")
	}
}
