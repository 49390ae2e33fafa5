package ghaction

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/github"
)

// baselinesDir holds baselines by convention; a pull request touching it is flagged.
const baselinesDir = "baselines"

// prepare builds the check callback's input. For a pull request it reads the config and
// the baseline as of the base commit, so the pull request cannot weaken its own gate,
// lists the protected files it changes, and finds who accepted a regression.
func (r *runner) prepare(ctx context.Context, gh *github.Client) (CheckInput, error) {
	in := CheckInput{
		ConfigPath:  r.ws.local(r.in.Config),
		AcceptLabel: r.in.AcceptLabel,
		ReportDir:   r.ws.dir,

		RequireBaseline: r.in.RequireBaseline,
	}
	var err error
	if in.Results, err = r.ws.expandResults(r.in.Results); err != nil {
		return in, err
	}
	if in.Reports, err = r.ws.expand("report", r.in.Report); err != nil {
		return in, err
	}
	if !r.ev.IsPR() || gh == nil {
		if r.ev.IsPR() {
			r.a.Warningf("evalgate: no github-token: the baseline and the gates are read from the workspace, not from the base commit")
		}
		if r.in.Baseline != "" {
			if p := r.ws.local(r.in.Baseline); exists(p) {
				in.BaselinePath = p
				in.BaselineSource, _ = r.ws.repoPath(r.in.Baseline)
			}
		}
		return in, nil
	}

	base := r.ev.BaseSHA
	in.BaseSHA = base
	in.ReadBase = func(ctx context.Context, repoPath string) ([]byte, error) {
		bctx, done := r.budget.context(ctx, stretchRead)
		defer done()
		b, err := gh.FileAtRef(bctx, r.owner, r.repo, repoPath, base)
		if err != nil && !errors.Is(err, github.ErrNotFound) {
			return nil, &readError{path: repoPath, sha: short(base), err: r.budget.explain(err)}
		}
		return b, err
	}
	configRepo, err := r.ws.repoPath(r.in.Config)
	if err != nil {
		return in, &InputError{Input: "config", Value: r.in.Config, Msg: "is outside the workspace"}
	}
	if in.BaseConfigPath, err = r.fetchBase(ctx, in.ReadBase, configRepo); err != nil {
		return in, err
	}
	protected := []string{configRepo}
	if r.in.Baseline != "" {
		baselineRepo, err := r.ws.repoPath(r.in.Baseline)
		if err != nil {
			return in, &InputError{Input: "baseline", Value: r.in.Baseline, Msg: "is outside the workspace"}
		}
		if in.BaselinePath, err = r.fetchBase(ctx, in.ReadBase, baselineRepo); err != nil {
			return in, err
		}
		if in.BaselinePath != "" {
			in.BaselineSource = baselineRepo + "@" + short(base)
		}
		protected = append(protected, baselineRepo)
	}
	dirs := []string{baselinesDir + "/"}
	if d, err := r.ws.repoPath(baselinesDir); err == nil && d != baselinesDir {
		dirs = append(dirs, d+"/")
	}

	ctx, done := r.budget.context(ctx, stretchRead)
	defer done()
	if changed, err := gh.ChangedFiles(ctx, r.owner, r.repo, r.ev.PRNumber); err != nil {
		r.a.Warningf("evalgate: cannot list the files this pull request changes: %v", err)
	} else {
		in.ProtectedChanged = protectedChanges(changed, protected, dirs)
	}
	if r.in.AcceptLabel != "" {
		if in.AcceptedBy, err = gh.AcceptedBy(ctx, r.owner, r.repo, r.ev.PRNumber, r.in.AcceptLabel); err != nil {
			r.a.Warningf("evalgate: cannot tell who applied the %q label: %v", r.in.AcceptLabel, err)
		}
	}
	return in, nil
}

// fetchBase copies the file at repoPath as of the base commit into a temporary file and
// returns its path; "" when the base commit has no such file.
func (r *runner) fetchBase(ctx context.Context, read func(context.Context, string) ([]byte, error), repoPath string) (string, error) {
	b, err := read(ctx, repoPath)
	if errors.Is(err, github.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	dir, err := r.tempDir()
	if err != nil {
		return "", err
	}
	// Keep the name: loaders may go by the extension.
	p := filepath.Join(dir, "base", filepath.FromSlash(repoPath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	return p, os.WriteFile(p, b, 0o644)
}

// tempDir returns this run's temporary directory, made on first use under RUNNER_TEMP
// when the runner provides one.
func (r *runner) tempDir() (string, error) {
	if r.tmp != "" {
		return r.tmp, nil
	}
	parent := r.a.Getenv("RUNNER_TEMP")
	if !exists(parent) {
		parent = ""
	}
	d, err := os.MkdirTemp(parent, "evalgate-")
	r.tmp = d
	return d, err
}

// protectedChanges returns, sorted, the changed paths that are one of files or lie in
// one of dirs (each ending in "/").
func protectedChanges(changed, files, dirs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range changed {
		hit := false
		for _, f := range files {
			hit = hit || c == path.Clean(f)
		}
		for _, d := range dirs {
			hit = hit || strings.HasPrefix(c, d)
		}
		if hit && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

func exists(p string) bool {
	if p == "" {
		return false
	}
	_, err := os.Stat(p)
	return err == nil
}
