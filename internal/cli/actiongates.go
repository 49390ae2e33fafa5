package cli

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/ghaction"
)

// gateDefs are the gate definitions a check in the action weighs: the gate that
// decides, and the pull request's own where it differs (the proposed gate).
type gateDefs struct {
	gate     gateDef
	base     bool     // gate is the base commit's
	proposed *gateDef // the pull request's own, when it differs from the base commit's
	tmp      string   // where the commits' files are written
}

func (d *gateDefs) cleanup() {
	if d != nil && d.tmp != "" {
		os.RemoveAll(d.tmp)
	}
}

// actionGates settles which definitions apply. Not a pull request: the workspace's
// config. A pull request: the base commit's config and every file it names, copied from
// the API (never the workspace), and the pull request's own (the workspace for a
// pull_request event, else its head commit copied the same way) as the proposed gate
// when it differs; on a first adoption, the pull request's own alone.
func (c *CLI) actionGates(ctx context.Context, in ghaction.CheckInput) (*gateDefs, error) {
	if in.ReadBase == nil {
		root := in.Root
		if rel, err := filepath.Rel(root, in.ConfigPath); root == "" || err != nil || !filepath.IsLocal(rel) {
			root = filepath.Dir(in.ConfigPath)
		}
		rel, _ := filepath.Rel(root, in.ConfigPath)
		return &gateDefs{gate: gateDef{repoConfig: filepath.ToSlash(rel), root: root}}, nil
	}
	tmp, err := os.MkdirTemp("", "evalgate-gates-")
	if err != nil {
		return nil, err
	}
	defs := &gateDefs{tmp: tmp}
	head := gateDef{repoConfig: in.HeadConfig, root: in.Root}
	if in.ReadHead != nil {
		if head, err = materialize(ctx, commitReader{read: in.ReadHead, list: in.ListHead, sha: in.HeadSHA}, in.HeadConfig, tmp); err != nil {
			return defs, fmt.Errorf("the pull request's config: %w", err)
		}
	}
	if in.FirstAdoption {
		defs.gate = head
		return defs, nil
	}
	base, err := materialize(ctx, commitReader{read: in.ReadBase, list: in.ListBase, sha: in.BaseSHA}, in.BaseConfig, tmp)
	if err != nil {
		return defs, &ghaction.BaseError{Path: in.BaseConfig, Err: err}
	}
	defs.gate, defs.base = base, true
	if base.repoConfig != head.repoConfig || !maps.Equal(fingerprint(base), fingerprint(head)) {
		defs.proposed = &head
	}
	return defs, nil
}

// errText is err's message with def's temporary root left out of the paths, so that
// they read as repository paths.
func (d *gateDefs) errText(err error, def gateDef) string {
	msg := err.Error()
	if def.commit != "" {
		msg = strings.ReplaceAll(msg, def.root+string(filepath.Separator), "")
	}
	return msg
}

// wrap makes an error about def's files (not the run's results) readable: repository
// paths, and, for the base commit's, a *ghaction.BaseError so that the job summary
// says to fix it on the base branch.
func (d *gateDefs) wrap(err error, def gateDef) error {
	if err == nil || def.commit == "" || !strings.Contains(err.Error(), def.root) {
		return err
	}
	te := &commitFileError{msg: d.errText(err, def) + " (as of commit " + shortSHA(def.commit) + ")", err: err}
	if d.base && def.root == d.gate.root {
		return &ghaction.BaseError{Path: def.repoConfig, Err: te}
	}
	return te
}

// commitFileError is an error about a file read as of a commit, its paths made
// relative to the repository.
type commitFileError struct {
	msg string
	err error
}

func (e *commitFileError) Error() string { return e.msg }
func (e *commitFileError) Unwrap() error { return e.err }
