package github

import (
	"context"
	"fmt"
	"path"

	gh "github.com/google/go-github/v60/github"
)

// MaxDirFiles bounds the files ListFiles returns under one directory: the Contents API
// lists at most 1,000 entries a directory, and a judge cache larger than this is read
// one request a file.
const MaxDirFiles = 2000

// ListFiles returns the paths (relative to the repository root) of every file under
// dir as of ref, walking subdirectories through the Contents API
// (https://docs.github.com/rest/repos/contents#get-repository-content). A missing
// directory is an error matching ErrNotFound; more than MaxDirFiles files is an error.
func (c *Client) ListFiles(ctx context.Context, owner, repo, dir, ref string) ([]string, error) {
	var out []string
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		op := fmt.Sprintf("list %s at %s in %s/%s", d, ref, owner, repo)
		file, entries, _, err := c.gh.Repositories.GetContents(ctx, owner, repo, d, &gh.RepositoryContentGetOptions{Ref: ref})
		if err != nil {
			return nil, classify(err, op)
		}
		if file != nil {
			return nil, fmt.Errorf("%s: a file, not a directory", op)
		}
		for _, e := range entries {
			p := e.GetPath()
			if p == "" {
				p = path.Join(d, e.GetName())
			}
			switch e.GetType() {
			case "dir":
				queue = append(queue, p)
			case "file":
				out = append(out, p)
			}
			if len(out) > MaxDirFiles {
				return nil, fmt.Errorf("%s: more than %d files", op, MaxDirFiles)
			}
		}
	}
	return out, nil
}
