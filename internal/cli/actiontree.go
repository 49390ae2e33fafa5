package cli

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/github"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
)

// gateDef is one gate definition: a config with every file it names, in a repository
// root of its own. For a pull request the base commit's is copied out of the API into
// a temporary directory, never read from the workspace; the pull request's own is the
// workspace (pull_request) or its head commit copied the same way.
type gateDef struct {
	repoConfig string // the config's path relative to the repository root
	root       string // the repository root the config and its files are in
	commit     string // the commit it was read at ("" for the workspace)
}

// config is the config file's path on disk.
func (d gateDef) config() string { return filepath.Join(d.root, filepath.FromSlash(d.repoConfig)) }

// repoPath is p (on disk, under root) relative to the repository root; ok is false when
// p lies outside root.
func (d gateDef) repoPath(p string) (string, bool) {
	rel, err := filepath.Rel(d.root, p)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// commitReader reads one commit's files through the API.
type commitReader struct {
	read func(ctx context.Context, repoPath string) ([]byte, error)
	list func(ctx context.Context, repoDir string) ([]string, error)
	sha  string
}

// materialize writes the config at repoConfig as of the reader's commit, and every file
// it names (the suite, rubric tests, JSON Schemas, judge templates, every file of the
// judge caches), into a new directory under parent that stands for the repository
// root. A file the commit lacks is left out: loading the config then fails naming it,
// rather than reading the workspace's copy.
func materialize(ctx context.Context, cr commitReader, repoConfig, parent string) (gateDef, error) {
	dir, err := os.MkdirTemp(parent, "evalgate-commit-")
	if err != nil {
		return gateDef{}, err
	}
	def := gateDef{repoConfig: repoConfig, root: dir, commit: cr.sha}
	// A .git entry makes the directory the repository root for the config's
	// containment checks (safeio.RepoRoot), as the workspace is.
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		return def, err
	}
	data, err := cr.read(ctx, repoConfig)
	if errors.Is(err, github.ErrNotFound) {
		return def, fmt.Errorf("%s does not exist at commit %s", repoConfig, shortSHA(cr.sha))
	}
	if err != nil {
		return def, err
	}
	if err := writeTreeFile(dir, repoConfig, data); err != nil {
		return def, err
	}
	refs, err := config.ReferencesOf(repoConfig, data)
	if err != nil {
		return def, nil // loading it says what is wrong, with the line
	}
	cfgDir := path.Dir(repoConfig)
	for _, f := range refs.Files {
		p, ok := treePath(cfgDir, f)
		if !ok {
			continue // outside the repository: the config's own checks refuse it
		}
		b, err := cr.read(ctx, p)
		if errors.Is(err, github.ErrNotFound) {
			continue
		}
		if err != nil {
			return def, err
		}
		if err := writeTreeFile(dir, p, b); err != nil {
			return def, err
		}
	}
	for _, s := range refs.Schemas {
		p, ok := treePath(cfgDir, s)
		if !ok {
			continue
		}
		err := walkSchemaRefs(p, func(f string) ([]byte, error) {
			if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f))); err == nil {
				return b, nil // fetched already
			}
			b, err := cr.read(ctx, f)
			if errors.Is(err, github.ErrNotFound) {
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			return b, writeTreeFile(dir, f, b)
		})
		if err != nil {
			return def, err
		}
	}
	for _, d := range refs.Dirs {
		p, ok := treePath(cfgDir, d)
		if !ok {
			continue
		}
		files, err := cr.list(ctx, p)
		if errors.Is(err, github.ErrNotFound) {
			continue
		}
		if err != nil {
			return def, err
		}
		for _, f := range files {
			if f != p && !strings.HasPrefix(f, p+"/") {
				continue // the listing answered for another directory
			}
			b, err := cr.read(ctx, f)
			if errors.Is(err, github.ErrNotFound) {
				continue
			}
			if err != nil {
				return def, err
			}
			if err := writeTreeFile(dir, f, b); err != nil {
				return def, err
			}
		}
	}
	return def, nil
}

// treePath joins p, as a config names it, to the config's directory cfgDir (both
// relative to the repository root); ok is false for an absolute path or one that leaves
// the repository.
func treePath(cfgDir, p string) (string, bool) {
	p = filepath.ToSlash(p)
	if p == "" || path.IsAbs(p) || filepath.IsAbs(p) {
		return "", false
	}
	j := path.Clean(path.Join(cfgDir, p))
	return j, filepath.IsLocal(filepath.FromSlash(j))
}

func writeTreeFile(root, repoPath string, data []byte) error {
	if !filepath.IsLocal(filepath.FromSlash(repoPath)) {
		return fmt.Errorf("%s is not a path inside the repository", repoPath)
	}
	p := filepath.Join(root, filepath.FromSlash(repoPath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// fingerprint hashes, by repository path, the config of def and every file it names (the
// judge caches' files included): two definitions with equal fingerprints and the same
// config path are the same gate. Missing files are left out.
func fingerprint(def gateDef) map[string][sha256.Size]byte {
	out := map[string][sha256.Size]byte{}
	add := func(repoPath string) {
		p := filepath.Join(def.root, filepath.FromSlash(repoPath))
		b, err := safeio.ReadFile(p, "file", safeio.MaxSmallFileBytes*64)
		if err == nil {
			out[repoPath] = sha256.Sum256(b)
		}
	}
	add(def.repoConfig)
	data, err := safeio.ReadFile(def.config(), "config", safeio.MaxSmallFileBytes)
	if err != nil {
		return out
	}
	refs, err := config.ReferencesOf(def.repoConfig, data)
	if err != nil {
		return out
	}
	cfgDir := path.Dir(def.repoConfig)
	for _, f := range refs.Files {
		if p, ok := treePath(cfgDir, f); ok {
			add(p)
		}
	}
	for _, s := range refs.Schemas {
		if p, ok := treePath(cfgDir, s); ok {
			_ = walkSchemaRefs(p, func(f string) ([]byte, error) {
				add(f)
				b, _ := safeio.ReadFile(filepath.Join(def.root, filepath.FromSlash(f)), "JSON Schema", safeio.MaxSmallFileBytes)
				return b, nil
			})
		}
	}
	for _, d := range refs.Dirs {
		p, ok := treePath(cfgDir, d)
		if !ok {
			continue
		}
		n := 0
		_ = filepath.WalkDir(filepath.Join(def.root, filepath.FromSlash(p)), func(f string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil
			}
			if n++; n > github.MaxDirFiles {
				return filepath.SkipAll
			}
			if rp, ok := def.repoPath(f); ok {
				add(rp)
			}
			return nil
		})
	}
	return out
}

// maxSchemaFiles bounds the files one JSON Schema's $refs may bring along.
const maxSchemaFiles = 100

// walkSchemaRefs reads, with read, the JSON Schema at repoPath and every file its $refs
// name, directly or through each other (rubric.SchemaRefs, relative to the naming file),
// each once and at most maxSchemaFiles. read answers nil for a file that is not there;
// a $ref that leaves the repository is skipped: compiling the schema refuses it.
func walkSchemaRefs(repoPath string, read func(repoPath string) ([]byte, error)) error {
	seen := map[string]bool{repoPath: true}
	for queue := []string{repoPath}; len(queue) > 0; queue = queue[1:] {
		data, err := read(queue[0])
		if err != nil {
			return err
		}
		for _, ref := range rubric.SchemaRefs(data) {
			p, ok := treePath(path.Dir(queue[0]), ref)
			if ok && !seen[p] && len(seen) < maxSchemaFiles {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return nil
}

func shortSHA(sha string) string { return sha[:min(len(sha), 7)] }
