package safeio

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestRepoRootAndWithin(t *testing.T) {
	base := t.TempDir()
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	repo := filepath.Join(base, "repo")
	cfgDir := filepath.Join(repo, "evals")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(cfgDir, 0o755)
	os.WriteFile(filepath.Join(base, "secret.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(repo, "schema.json"), []byte("{}"), 0o644)
	os.Symlink(filepath.Join(base, "secret.json"), filepath.Join(cfgDir, "link.json"))

	root := RepoRoot(cfgDir)
	if root != repo {
		t.Fatalf("RepoRoot = %s; want the git toplevel %s", root, repo)
	}
	// Without a .git above, the config's own directory is the boundary.
	if r := RepoRoot(base); r != base {
		t.Errorf("RepoRoot without git = %s; want %s", r, base)
	}
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{filepath.Join(cfgDir, "..", "schema.json"), true},        // up, but inside the repository
		{filepath.Join(cfgDir, "cache", "new", "dir"), true},      // does not exist yet
		{filepath.Join(cfgDir, "..", "..", "secret.json"), false}, // leaves it
		{filepath.Join(cfgDir, "link.json"), false},               // a symlink that leaves it
		{"/etc/passwd", false},
		{repo + "-sibling/x", false}, // a prefix of the root's name is not inside it
	} {
		_, err := Within(root, tc.path)
		var oe *OutsideError
		if tc.ok != (err == nil) || (!tc.ok && !errors.As(err, &oe)) {
			t.Errorf("Within(%s) = %v; want ok=%v", tc.path, err, tc.ok)
		}
	}
}
