package ghaction

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/github"
)

// baselinesDir holds baselines by convention; a pull request touching it is flagged.
const baselinesDir = "baselines"

// prepare builds the check callback's input. For a pull request the gate is the base
// commit's: which config applies is read from the base commit's own workflow, and the
// config, its files and the baseline are read as of the base commit, so the pull
// request cannot weaken its own gate. It lists the protected files the pull request
// changes and finds who applied the accept label.
func (r *runner) prepare(ctx context.Context, gh *github.Client) (CheckInput, error) {
	in := CheckInput{
		ConfigPath:  r.ws.local(r.in.Config),
		Root:        r.ws.root,
		AcceptLabel: r.in.AcceptLabel,
		ReportDir:   r.ws.dir,
		Privileged:  r.ev.Privileged(),

		RequireBaseline: r.in.RequireBaseline,
		MaxCostUSD:      r.in.MaxCostUSD,
		Settle:          r.in.Settle == "auto",
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
		if name := r.in.Baseline; name != "" {
			// X.json or X.jsonl, whichever exists (baseline.Find's rule).
			if p, renamed := baseline.Find(r.ws.local(name)); exists(p) {
				if renamed != "" {
					name = baseline.OtherName(name)
					r.a.Noticef("evalgate: %s", renamed)
				}
				in.BaselinePath = p
				in.BaselineSource, _ = r.ws.repoPath(name)
			}
		}
		return in, nil
	}

	base := r.ev.BaseSHA
	in.BaseSHA = base
	in.ReadBase, in.ListBase = r.reader(gh, base, "the base commit")
	if r.ev.Privileged() {
		// The workspace is not the pull request's (pull_request_target checks out the
		// base branch, workflow_run the default branch): read its files at its head.
		in.HeadSHA = r.ev.HeadSHA
		in.ReadHead, in.ListHead = r.reader(gh, r.ev.HeadSHA, "the head commit")
	}
	running := gateInputs{Config: r.in.Config, WorkingDirectory: r.in.WorkingDirectory, Baseline: r.in.Baseline}
	if wd, err := r.ws.repoPath(r.ws.dir); err == nil {
		running.WorkingDirectory = wd
	}
	basePaths, err := r.gateInputsAt(ctx, in.ReadBase, base, running)
	if err != nil {
		return in, err
	}
	headPaths := running
	if in.ReadHead != nil {
		if headPaths, err = r.gateInputsAt(ctx, in.ReadHead, r.ev.HeadSHA, running); err != nil {
			return in, err
		}
	}
	baseConfig, err := basePaths.configRepoPath()
	if err != nil {
		return in, &InputError{Input: "config", Value: basePaths.Config, Msg: err.Error()}
	}
	if in.HeadConfig, err = headPaths.configRepoPath(); err != nil {
		return in, &InputError{Input: "config", Value: headPaths.Config, Msg: err.Error()}
	}
	if err := r.chooseGate(ctx, &in, baseConfig); err != nil {
		return in, err
	}
	protected := []string{baseConfig}
	if in.HeadConfig != baseConfig {
		protected = append(protected, in.HeadConfig)
	}
	baselineRepo, err := basePaths.baselineRepoPath()
	if err != nil {
		return in, &InputError{Input: "baseline", Value: basePaths.Baseline, Msg: err.Error()}
	}
	if baselineRepo != "" {
		if in.BaselinePath, err = r.fetchBase(ctx, in.ReadBase, baselineRepo); err != nil {
			return in, err
		}
		if in.BaselinePath != "" {
			in.BaselineSource = baselineRepo + "@" + short(base)
		} else {
			in.BaselineAbsent = baselineRepo
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
		// The head sha is the one the check run goes on. For a pull request event it is the
		// payload's, and the label accepts it only in the run applying the label started;
		// for workflow_run it is the commit the producer tested, and the label accepts it
		// only if applied after it was pushed.
		if in.Acceptance, err = gh.Acceptance(ctx, r.owner, r.repo, r.ev.PRNumber, r.ev.HeadSHA, r.in.AcceptLabel, r.ev.Trigger()); err != nil {
			r.a.Warningf("evalgate: cannot tell whether the %q label accepts commit %s: %v", r.in.AcceptLabel, short(r.ev.HeadSHA), err)
		}
		if in.Acceptance.Stale() {
			r.a.Warningf("evalgate: %s", staleAcceptance(in.Acceptance, r.in.AcceptLabel))
		}
	}
	return in, nil
}

// commitFiles is what reading a commit's files needs of GitHub.
type commitFiles interface {
	FileAtRef(ctx context.Context, owner, repo, path, ref string) ([]byte, error)
	ListFiles(ctx context.Context, owner, repo, dir, ref string) ([]string, error)
}

var _ commitFiles = (*github.Client)(nil)

// reader returns functions that read a file and list a directory as of commit sha,
// within the publish budget; which names the commit in errors.
func (r *runner) reader(gh commitFiles, sha, which string) (func(context.Context, string) ([]byte, error), func(context.Context, string) ([]string, error)) {
	read := func(ctx context.Context, repoPath string) ([]byte, error) {
		bctx, done := r.budget.context(ctx, stretchRead)
		defer done()
		b, err := gh.FileAtRef(bctx, r.owner, r.repo, repoPath, sha)
		if err != nil && !errors.Is(err, github.ErrNotFound) {
			return nil, &readError{path: repoPath, sha: short(sha), which: which, err: r.budget.explain(err)}
		}
		return b, err
	}
	list := func(ctx context.Context, repoDir string) ([]string, error) {
		bctx, done := r.budget.context(ctx, stretchRead)
		defer done()
		files, err := gh.ListFiles(bctx, r.owner, r.repo, repoDir, sha)
		if err != nil && !errors.Is(err, github.ErrNotFound) {
			return nil, &readError{path: repoDir, sha: short(sha), which: which, err: r.budget.explain(err)}
		}
		return files, err
	}
	return read, list
}

// gateInputsAt reads, from the running workflow's file as of commit sha, the inputs of
// this check's evalgate step that choose the gate (config, working-directory,
// baseline). When the commit has no such workflow or step (the pull request adds it),
// the running workflow's inputs stand, and the log says so.
func (r *runner) gateInputsAt(ctx context.Context, read func(context.Context, string) ([]byte, error), sha string, running gateInputs) (gateInputs, error) {
	file, wfRepo := workflowFile(r.a.Getenv("GITHUB_WORKFLOW_REF"))
	if file == "" {
		r.a.Warningf("evalgate: GITHUB_WORKFLOW_REF names no workflow file: the config, working-directory and baseline inputs are taken from the running workflow, not from commit %s", short(sha))
		return running, nil
	}
	if !strings.EqualFold(wfRepo, r.owner+"/"+r.repo) {
		// Another repository's workflow (one a ruleset requires): a pull request here
		// cannot edit it, and a file of this repository at the same path is another
		// workflow, whose inputs are not this step's.
		r.a.Noticef("evalgate: the running workflow is %s's %s: the config, working-directory and baseline inputs are its own", wfRepo, file)
		return running, nil
	}
	data, err := read(ctx, file)
	if errors.Is(err, github.ErrNotFound) {
		r.a.Noticef("evalgate: %s does not exist at commit %s: the config, working-directory and baseline inputs are the running workflow's", file, short(sha))
		return running, nil
	}
	if err != nil {
		return running, err
	}
	g, ok, err := findGateStep(data, r.in.CheckName, r.a.Getenv("GITHUB_ACTION_REPOSITORY"))
	if err != nil {
		return running, &BaseError{Path: file, Err: err}
	}
	if !ok {
		r.a.Noticef("evalgate: %s at commit %s has no evalgate check step named %q: the config, working-directory and baseline inputs are the running workflow's", file, short(sha), r.in.CheckName)
		return running, nil
	}
	return g, nil
}

// chooseGate decides where the gate comes from: the base commit's config at baseConfig
// (the path the base commit's own workflow names), or, only when the base commit has
// none there, the pull request's own (a first adoption, which require-base-config
// refuses). A base commit without a config at baseConfig but with one at the pull
// request's path is an error naming both: the pull request moved the config path.
func (r *runner) chooseGate(ctx context.Context, in *CheckInput, baseConfig string) error {
	_, err := in.ReadBase(ctx, baseConfig)
	switch {
	case err == nil:
		in.BaseConfig = baseConfig
		return nil
	case !errors.Is(err, github.ErrNotFound):
		return err
	}
	if in.HeadConfig != baseConfig {
		_, herr := in.ReadBase(ctx, in.HeadConfig)
		switch {
		case herr == nil:
			return &GateSourceError{Msg: fmt.Sprintf("the base commit %s has no evalgate config at %s, the path its own workflow names, but has one at %s, the path this run names: "+
				"fix the base branch's workflow or config path; a pull request cannot choose which config gates it", short(r.ev.BaseSHA), baseConfig, in.HeadConfig)}
		case !errors.Is(herr, github.ErrNotFound):
			return herr
		}
	}
	if r.in.RequireBaseConfig {
		return &GateSourceError{Msg: fmt.Sprintf("require-base-config: the base commit %s has no evalgate config at %s, the path its own workflow names; "+
			"this pull request would bring its own gate (a first adoption), which this workflow refuses", short(r.ev.BaseSHA), baseConfig)}
	}
	in.FirstAdoption = true
	return nil
}

// GateSourceError says the gate a pull request would be judged by cannot be settled
// from the base commit.
type GateSourceError struct{ Msg string }

func (e *GateSourceError) Error() string { return e.Msg }

// fetchBase copies the baseline at repoPath as of the base commit, with the files
// that belong beside it (CopyBaseline), into a temporary directory and returns its
// path there; "" when the base commit has no such file.
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
	d := filepath.Join(dir, "base", filepath.FromSlash(path.Dir(repoPath)))
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	return CopyBaseline(ctx, read, repoPath, b, d)
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
