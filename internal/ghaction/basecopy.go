package ghaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/github"
	"github.com/evalgate/evalgate/internal/history"
)

// CopyBaseline writes the baseline at repoPath (a repository path; data is its content
// as of a commit) into dir under its own name, with the recorded outputs file its header
// names (outputs_file: outputs over 1 MB are kept beside the baseline), read with read
// as of the same commit: re-scoring the baseline under a changed scoring system (a
// proposed gate's, or the base commit's own before its baseline is refreshed) reads
// them there. An outputs file the commit lacks is left out, as the workspace would lack
// it, and re-scoring says so. It returns the baseline's path in dir.
func CopyBaseline(ctx context.Context, read func(context.Context, string) ([]byte, error), repoPath string, data []byte, dir string) (string, error) {
	name := path.Base(repoPath)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return "", err
	}
	// The score's history beside it (earlier releases' run means), as of the base
	// commit too: the run-level noise is pooled over it, as a local check pools the
	// history beside its baseline, so the action's verdict is the one the report's
	// "reproduce locally" command gives.
	hist := history.PathFor(repoPath)
	switch b, err := read(ctx, hist); {
	case errors.Is(err, github.ErrNotFound):
	case err != nil:
		return "", err
	default:
		if err := os.WriteFile(history.PathFor(p), b, 0o644); err != nil {
			return "", err
		}
	}
	out := outputsFileOf(data)
	if out == "" || out == name {
		return p, nil
	}
	b, err := read(ctx, path.Join(path.Dir(repoPath), out))
	if errors.Is(err, github.ErrNotFound) {
		return p, nil
	}
	if err != nil {
		return "", err
	}
	return p, os.WriteFile(filepath.Join(dir, out), b, 0o644)
}

// outputsFileOf is the outputs_file a baseline's header names (the first JSON value of
// data: the header line of a version 2 file, the whole of a version 1 file), when it is
// a plain name beside the baseline (the baseline's own rule); "" otherwise.
func outputsFileOf(data []byte) string {
	var h struct {
		OutputsFile string `json:"outputs_file"`
	}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&h); err != nil {
		return ""
	}
	f := h.OutputsFile
	if f == "" || f != path.Base(f) || f != filepath.Base(f) || strings.HasPrefix(f, ".") || strings.ContainsAny(f, `/\`) {
		return ""
	}
	return f
}
