package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/pathglob"
	"github.com/evalgate/evalgate/internal/safeio"
)

// rerunOut is the file the settle hint's `evalgate run --only … --out` writes: rerunN.jsonl,
// or reruns/rerunN.jsonl when a results pattern of the check would read rerunN.jsonl as
// a run of its own (`--results '*.jsonl'`): the pasted check then counted the re-run
// of one item as a full run whose other items were missing (a 5-pt drop read as 50).
func rerunOut(n int, results []string, cfg *config.Config) string {
	pats := results
	if len(pats) == 0 && cfg != nil {
		for _, p := range cfg.Results {
			pats = append(pats, cfg.Path(p))
		}
	}
	first := fmt.Sprintf("rerun%d.jsonl", n)
	for _, c := range []string{first, filepath.Join("reruns", first)} {
		read := false
		for _, p := range pats {
			read = read || patternReads(p, c)
		}
		if !read {
			return filepath.ToSlash(c)
		}
	}
	return first
}

// patternReads reports whether a results pattern (or file) p would read the file
// path (relative to the working folder). A "**" pattern is taken to read everything
// under its root (its leading segments free of wildcards).
func patternReads(p, path string) bool {
	if p == safeio.Stdin {
		return false
	}
	if filepath.IsAbs(p) {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
	}
	path = filepath.Clean(path)
	switch {
	case !pathglob.HasMeta(p):
		return filepath.Clean(p) == path
	case strings.Contains(p, "**"):
		rel, err := filepath.Rel(globRoot(p), path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	ok, _ := filepath.Match(filepath.Clean(p), path)
	return ok
}

// globRoot is the directory a pattern's matches all lie under: its leading path
// segments free of wildcards ("." for none).
func globRoot(pattern string) string {
	segs := strings.Split(filepath.ToSlash(pattern), "/")
	var root []string
	for _, s := range segs[:len(segs)-1] {
		if pathglob.HasMeta(s) {
			break
		}
		root = append(root, s)
	}
	switch {
	case len(root) == 0:
		return "."
	case len(root) == 1 && root[0] == "":
		return string(filepath.Separator)
	}
	return filepath.FromSlash(strings.Join(root, "/"))
}
