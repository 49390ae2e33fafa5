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
// zero or more segments. It fills a table of which pattern suffixes match which path
// suffixes, one row at a time from the end, so a pattern of many "**" costs
// len(pat)×len(name) steps; trying every split of the path for each "**" in turn took
// time exponential in their number.
func matchSegments(pat, name []string) bool {
	// next[j]: pat[i+1:] matches name[j:]; cur[j]: pat[i:] matches name[j:].
	next := make([]bool, len(name)+1)
	cur := make([]bool, len(name)+1)
	next[len(name)] = true // the empty pattern matches the empty path only
	for i := len(pat) - 1; i >= 0; i-- {
		if pat[i] == "**" {
			cur[len(name)] = next[len(name)]
			for j := len(name) - 1; j >= 0; j-- {
				cur[j] = next[j] || cur[j+1] // zero segments, or one and then still "**"
			}
		} else {
			cur[len(name)] = false
			for j := len(name) - 1; j >= 0; j-- {
				ok := false
				if next[j+1] {
					ok, _ = path.Match(pat[i], name[j])
				}
				cur[j] = ok
			}
		}
		next, cur = cur, next
	}
	return next[0]
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
