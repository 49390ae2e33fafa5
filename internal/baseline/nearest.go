package baseline

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/suggest"
)

// nearest is the existing path nearest to p, a path that does not exist: each
// missing component is replaced by the closest name in its directory
// ("baselines/tutor-capstone.jsnl" → "baselines/tutor-capstone.jsonl"). It returns ""
// when no name is close enough.
func nearest(p string) string {
	clean := filepath.Clean(p)
	parts := strings.Split(filepath.ToSlash(clean), "/")
	cur := ""
	if filepath.IsAbs(clean) {
		cur = string(filepath.Separator)
	}
	changed := false
	for _, part := range parts {
		if part == "" {
			continue
		}
		next := filepath.Join(cur, part)
		if cur == "" {
			next = part
		}
		if _, err := os.Stat(next); err != nil {
			dir := cur
			if dir == "" {
				dir = "."
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				return ""
			}
			names := make([]string, 0, len(entries))
			for _, e := range entries {
				names = append(names, e.Name())
			}
			best := suggest.Closest(part, names)
			if best == "" {
				return ""
			}
			next = filepath.Join(cur, best)
			if cur == "" {
				next = best
			}
			changed = true
		}
		cur = next
	}
	if !changed {
		return ""
	}
	if fi, err := os.Stat(cur); err != nil || fi.IsDir() {
		return ""
	}
	return cur
}
