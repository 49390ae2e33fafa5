package ghaction

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/pathglob"
)

// workspace resolves the action's paths. Inputs are relative to the working directory;
// the GitHub API wants them relative to the repository root (the workspace); outputs
// must be relative to the workspace too, since a container action sees it at another
// absolute path than later steps on the runner.
type workspace struct {
	root string // GITHUB_WORKSPACE, absolute
	dir  string // the working directory, absolute, inside root
}

func newWorkspace(root, workingDirectory string) (workspace, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return workspace{}, err
	}
	dir := workingDirectory
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	ws := workspace{root: root, dir: filepath.Clean(dir)}
	if _, err := ws.repoPath(ws.dir); err != nil {
		return workspace{}, &InputError{Input: "working-directory", Value: workingDirectory, Msg: "is outside the workspace " + root}
	}
	return ws, nil
}

// local returns p (relative to the working directory, or absolute) as an absolute path.
func (w workspace) local(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(w.dir, p)
}

// repoPath returns p (relative to the working directory, or absolute) relative to the
// repository root, with forward slashes, or an error if it lies outside.
func (w workspace) repoPath(p string) (string, error) {
	rel, err := filepath.Rel(w.root, w.local(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the workspace %s", p, w.root)
	}
	return filepath.ToSlash(rel), nil
}

// expandResults expands the results patterns (relative to the working directory;
// "**" matches any number of directories) into sorted, distinct files. A pattern that
// matches nothing is an error naming the input.
func (w workspace) expandResults(patterns []string) ([]string, error) {
	return w.expand("results", patterns)
}

// expand expands the patterns of input (relative to the working directory; "**"
// matches any number of directories) into sorted, distinct files. A pattern that
// matches nothing is an error naming the input.
func (w workspace) expand(input string, patterns []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, p := range patterns {
		matches, err := pathglob.Glob(w.local(p))
		if err != nil {
			return nil, &InputError{Input: input, Value: p, Msg: "is not a valid pattern: " + err.Error()}
		}
		if len(matches) == 0 {
			return nil, &InputError{Input: input, Value: p, Msg: "matches no file in " + w.dir}
		}
		for _, m := range matches {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}
