package safeio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// RepoRoot is the directory that paths named by a config must stay inside: the git
// repository holding dir (the nearest ancestor with a .git entry, which is what
// `git rev-parse --show-toplevel` finds), else dir itself. Symlinks are resolved, so a
// link cannot move the boundary.
func RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return abs
		}
		d = up
	}
}

// OutsideError is a path that leaves the repository.
type OutsideError struct {
	Path     string // as given
	Resolved string // with symlinks resolved
	Root     string
}

func (e *OutsideError) Error() string {
	if e.Resolved != e.Path {
		return fmt.Sprintf("%s resolves to %s, outside the repository %s; a config may only name files inside it", e.Path, e.Resolved, e.Root)
	}
	return fmt.Sprintf("%s is outside the repository %s; a config may only name files inside it", e.Path, e.Root)
}

// Within resolves path (absolute, symlinks followed; a path that does not exist yet is
// resolved as far as it exists) and returns it when it lies inside root (a RepoRoot),
// else an *OutsideError.
func Within(root, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	resolved, err := resolveExisting(abs)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, resolved)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", &OutsideError{Path: path, Resolved: resolved, Root: root}
	}
	return resolved, nil
}

// resolveExisting is filepath.EvalSymlinks for the longest part of p that exists, with
// the rest (not created yet: a cache directory) joined on.
func resolveExisting(p string) (string, error) {
	var rest []string
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		up := filepath.Dir(p)
		if up == p {
			return filepath.Join(append([]string{p}, rest...)...), nil
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = up
	}
}
