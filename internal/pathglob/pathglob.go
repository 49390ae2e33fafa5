// Package pathglob expands results patterns: filepath.Glob's syntax plus "**" for any
// number of directories. The action's `results` input, `--results` and the config's
// `results:` list all go through it, so a pattern means the same thing everywhere.
package pathglob

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// HasMeta reports whether p is a pattern rather than a plain path.
func HasMeta(p string) bool { return strings.ContainsAny(p, "*?[") }

// Glob returns the regular files matching pattern, sorted. "**" matches zero or more
// directories; the other wildcards are path.Match's.
func Glob(pattern string) ([]string, error) {
	if !strings.Contains(pattern, "**") {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			return nil, err
		}
		return regularFiles(matches), nil
	}
	// Walk from the longest directory prefix free of wildcards.
	slashed := filepath.ToSlash(pattern)
	root := slashed[:strings.IndexAny(slashed, "*?[")]
	root = root[:strings.LastIndex(root, "/")+1]
	if root == "" {
		root = "."
	}
	if _, err := path.Match(strings.ReplaceAll(slashed, "**", "*"), ""); err != nil {
		return nil, err
	}
	var out []string
	err := filepath.WalkDir(filepath.FromSlash(root), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if matchSegments(strings.Split(slashed, "/"), strings.Split(filepath.ToSlash(p), "/")) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// matchSegments matches path segments against pattern segments, "**" standing for
// zero or more segments.
func matchSegments(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchSegments(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

func regularFiles(paths []string) []string {
	var out []string
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}
