package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/ghaction"
	"github.com/evalgate/evalgate/internal/github"
	"github.com/evalgate/evalgate/internal/history"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/safeio"
	"github.com/evalgate/evalgate/internal/shellword"
)

func (c *CLI) action(args []string) int {
	if len(args) > 0 {
		fmt.Fprintln(c.Stderr, "Usage: evalgate action\n\nThe GitHub Action's entrypoint: every setting comes from INPUT_* and GITHUB_* variables\n(see action.yml and docs/action.md). It takes no flags.")
		if args[0] == "-h" || args[0] == "--help" {
			return ExitPass
		}
		return ExitBadInput
	}
	// What the check prints itself may quote model outputs and files: in the action's
	// log no such line may start a workflow command. Run's own commands go out as is.
	safe := *c
	stdout, stderr := ghaction.LogWriter(c.Stdout), ghaction.LogWriter(c.Stderr)
	safe.Stdout, safe.Stderr = stdout, stderr
	defer func() {
		_ = stdout.Flush()
		_ = stderr.Flush()
	}()
	return ghaction.Run(context.Background(), ghaction.Env{Getenv: c.Getenv, Stdout: c.Stdout}, safe.actionCheck, safe.actionBaseline)
}

// actionCheck is evalgate check for the action. A pull request is judged by the gate
// of its base commit, all of it (the config, its suite, scoring and grading systems,
// rubric tests and judges, and the baseline), with its own results; where its own
// definition differs, that is scored beside it as a proposed gate, which decides only
// once a maintainer accepts it.
func (c *CLI) actionCheck(ctx context.Context, in ghaction.CheckInput) (*ghaction.Outcome, error) {
	defs, err := c.actionGates(ctx, in)
	defer defs.cleanup()
	if err != nil {
		return nil, err
	}
	gr, err := c.loadGate(in, defs.gate, defs.base)
	if err != nil {
		return nil, defs.wrap(err, defs.gate)
	}
	if in.Privileged && in.FirstAdoption {
		if why := unsafeJudges(&config.Config{}, gr.l.Config); why != "" {
			return nil, fmt.Errorf("this pull request adds evalgate under a privileged event (pull_request_target or workflow_run), so its own gate applies, and %s. "+
				"Merge the config first, or let its judges replay their cache", strings.TrimPrefix(why, "its "))
		}
	}
	var proposed *gateRun
	var prop *report.ProposedGate
	if defs.proposed != nil {
		if proposed, err = c.loadGate(in, *defs.proposed, false); err != nil {
			// The pull request's own definition does not load: the base gate decides,
			// and the comment says why the proposed one could not be scored.
			prop = &report.ProposedGate{Config: defs.proposed.repoConfig, BaseConfig: defs.gate.repoConfig, AcceptLabel: in.AcceptLabel,
				NotScored: "it does not load: " + defs.errText(err, *defs.proposed)}
			proposed = nil
		} else {
			prop = proposedGate(in, gr, proposed)
			gr.opts.Unscored = addedItems(gr, proposed)
			if !sameRerunWay(gr.l.Config, proposed.l.Config) {
				// Settling the proposed gate would run what the pull request wrote, with
				// this step's token and keys: as for its judges, never.
				proposed.canSettle = false
			}
		}
	}
	r, err := gr.check(ctx, c, in)
	if err != nil {
		return nil, defs.wrap(err, defs.gate)
	}
	defer r.Close()
	final := r
	accepted := false
	if proposed != nil && prop.NotScored == "" {
		pr, err := proposed.check(ctx, c, in)
		if err != nil {
			prop.NotScored = "scoring it failed: " + defs.errText(err, *defs.proposed)
		} else {
			defer pr.Close()
			prop.Scored, prop.Verdict, prop.Blocks, prop.Score = true, pr.Verdict.Status, pr.Verdict.Blocks, pr.Summary.Mean
			if by := in.Acceptance.By(); by != "" {
				// Accepted: the pull request is judged by the gate it proposes.
				prop.AcceptedBy = by
				pr.Verdict = gate.AcceptProposed(pr.Verdict, by, in.AcceptLabel, prop.Short())
				final, accepted = pr, true
			}
		}
	}
	final.Proposed = prop
	out, err := c.actionOutcome(final, in)
	if err != nil {
		return nil, err
	}
	out.ProposedAccepted = accepted
	if accepted {
		// The check's title leads with what the maintainer accepted.
		out.CheckTitle = report.Truncate("proposed gate ("+prop.Short()+") accepted by @"+prop.AcceptedBy+" · "+out.CheckTitle, 250)
	}
	return out, nil
}

// gateRun is one gate definition loaded with the run's results, ready to check.
type gateRun struct {
	def    gateDef
	l      *Loaded
	opts   CheckOptions
	source string   // where the baseline came from
	base   bool     // the base commit's definition (its errors are to be fixed there)
	tmp    []string // temporary directories, removed once checked
	// canSettle: the config has a way to re-run items with (a `rerun:` command, or a
	// `run:` block for evalgate's own results: rerunWayOf).
	canSettle bool
}

// loadGate loads def's config with the pull request's results (the results input, or
// the results the config names, in the workspace) and finds its baseline: the one its
// config names as of the base commit.
func (c *CLI) loadGate(in ghaction.CheckInput, def gateDef, base bool) (*gateRun, error) {
	now, err := c.reportTime("")
	if err != nil {
		return nil, err
	}
	opts := CheckOptions{
		CheckPlan: CheckPlan{
			Config:      def.config(),
			Results:     in.Results,
			Baseline:    in.BaselinePath,
			CodeVersion: c.codeVersion(),
		},
		ActionState: ActionState{
			AcceptedBy:      in.Acceptance.By(),
			AcceptLabel:     in.AcceptLabel,
			RequireBaseline: in.RequireBaseline,
			// A pull request whose base commit has no config adds evalgate: a missing
			// baseline never fails it.
			FirstAdoption: in.FirstAdoption,
		},
		CheckEnv: CheckEnv{
			Now: now,
			Env: c.judgeEnv(&common{MaxCostUSD: in.MaxCostUSD}),
			// Progress of a long scoring goes to the job's log, never into the comment.
			Progress: c.meter(false, "scoring", "records", "building the report"),
		},
	}
	if in.Privileged && in.HeadSHA != "" {
		opts.CodeVersion = in.HeadSHA // the commit the results are of, not the default branch's
	}
	shown := c.shownPlan(in)
	opts.Shown = &shown
	if len(opts.Results) == 0 && len(in.Reports) == 0 && def.commit != "" {
		// The config's own results: the run's, in the workspace, where the config
		// would stand.
		data, err := safeio.ReadFile(def.config(), "config", safeio.MaxSmallFileBytes)
		if err != nil {
			return nil, err
		}
		if refs, err := config.ReferencesOf(def.repoConfig, data); err == nil {
			for _, p := range refs.Results {
				if rp, ok := treePath(path.Dir(def.repoConfig), p); ok {
					opts.Results = append(opts.Results, filepath.Join(in.Root, filepath.FromSlash(rp)))
				}
			}
		}
	}
	imp, err := c.actionImport()
	if err != nil {
		return nil, err
	}
	opts.Import = imp
	g := &gateRun{def: def, opts: opts, source: in.BaselineSource, base: base}
	if len(in.Reports) > 0 {
		// A report already scored (merged shards): the config alone, as check --report.
		g.opts.Progress = c.meter(false, "merging", "items", "building the report")
		g.l, err = loadConfigOnly(g.opts)
	} else {
		g.l, err = Load(g.opts)
	}
	if err != nil {
		return nil, err
	}
	g.canSettle = g.l.way != rerunByNone
	if in.Privileged {
		// Nothing privileged runs a command a pull request could have written.
		g.l.Config.Run, g.l.Config.Rerun = nil, nil
	}
	return g, nil
}

// check scores, compares and gates g.
func (g *gateRun) check(ctx context.Context, c *CLI, in ghaction.CheckInput) (*report.Report, error) {
	defer func() {
		for _, p := range g.tmp {
			os.RemoveAll(p)
		}
	}()
	cfg := g.l.Config
	opts := g.opts
	if in.BaselineAbsent != "" && in.ReadBase != nil {
		// The baseline input names a file the base commit lacks: that baseline is
		// missing (require-baseline fails), not replaced by the config's.
		missing := absentAtBase(in, cfg, in.BaselineAbsent)
		opts.BaselineMissing, opts.MissingBaseline = missing.Absent, missing.AbsentFile
	} else if in.BaselinePath == "" && in.ReadBase != nil {
		// A pull request: the baseline the definition's config names, as of the base
		// commit. The pull request's own copy never counts, so it cannot move its own bar.
		p, src, missing, err := c.baseBaseline(ctx, in, cfg, g.def)
		if err != nil {
			return nil, err
		}
		opts.Baseline, opts.BaselineMissing, g.source = p, missing.Absent, src
		opts.MissingBaseline = missing.AbsentFile
		if p != "" {
			g.tmp = append(g.tmp, filepath.Dir(p))
		}
	}
	var r *report.Report
	var err error
	if len(in.Reports) > 0 {
		r, err = g.l.checkReports(ctx, opts, in.Reports)
		if err == nil && g.base && cfg.Suite != "" {
			suite := cfg.Path(cfg.Suite)
			shown, _ := g.def.repoPath(suite)
			if err = checkShardSuite(suite, shown, g.l.Index); err != nil {
				r.Close()
			}
		}
	} else {
		r, err = g.l.Check(ctx, opts)
		if err == nil && in.Settle && g.canSettle && wantsSettle(r) {
			r, err = c.settleInAction(ctx, in, g, opts, r)
		}
	}
	if err != nil {
		return nil, err
	}
	if in.BaselinePath == "" && in.BaselineAbsent == "" && in.ReadBase != nil && cfg.Baseline != "" {
		// The score's history beside the baseline, read as of the base commit too: the
		// comment sets the last releases next to this pull request.
		if r.History, err = c.baseHistory(ctx, in, cfg, g.def, opts.Baseline); err != nil {
			r.Close()
			return nil, err
		}
	}
	if g.source != "" && r.Comparison != nil {
		r.Comparison.BaselineFile = g.source
	}
	if r.Comparison != nil && opts.Baseline != "" {
		shown, _, _ := strings.Cut(g.source, "@") // "baselines/x.jsonl@f95f852": as of the base commit
		if opts.Shown != nil && opts.Shown.Baseline != "" {
			shown = opts.Shown.Baseline
		}
		if shown != "" {
			r.Comparison.Notes = notesNaming(r.Comparison.Notes, opts.Baseline, shown)
		}
	}
	if rp, ok := g.def.repoPath(r.SuiteFile); ok && g.def.commit != "" {
		// The suite as of a commit: its lines are shown where the workspace has it.
		r.SuiteFile = filepath.Join(in.Root, filepath.FromSlash(rp))
	}
	r.Command = g.def.repoConfig // replaced by workspacePaths
	return r, nil
}

// actionOutcome writes r's report files and has ghaction make what the action publishes.
func (c *CLI) actionOutcome(r *report.Report, in ghaction.CheckInput) (*ghaction.Outcome, error) {
	// Annotations take the workspace's absolute suite path (ghaction makes it relative
	// to the repository); what people read takes the relative one.
	anns := ghaction.Annotations(r)
	c.workspacePaths(r, in)
	reportPath := filepath.Join(in.ReportDir, "evalgate-report-"+safeName(r.Suite)+".json")
	if err := saveReport(r, report.FormatJSON, reportPath); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	htmlPath := strings.TrimSuffix(reportPath, ".json") + ".html"
	if err := saveReport(r, report.FormatHTML, htmlPath); err != nil {
		return nil, fmt.Errorf("writing the HTML report: %w", err)
	}
	md := r.Markdown(report.MarkdownOptions{ReportURL: c.runURL(), ReportName: filepath.Base(htmlPath)})
	return ghaction.NewOutcome(r, ghaction.Rendered{ReportPath: reportPath, HTMLPath: htmlPath, Markdown: md}, anns), nil
}

// absentAtBase is what baseline.Choose is to know of a baseline rel (a repository
// path) the base commit lacks.
func absentAtBase(in ghaction.CheckInput, cfg *config.Config, rel string) baseline.Want {
	w := baseline.AtBase(rel, in.Root)
	if w.AbsentFile == "" && (in.RequireBaseline || cfg.Grading.RegressionGate().RequireBaseline) {
		// The pull request adds the baseline, but the base commit's gate requires one
		// and lacks it: a file of the pull request's own is never compared with, so
		// the requirement is not met (the pull request that adds evalgate is spared
		// by the gate itself).
		w.AbsentFile = rel
	}
	return w
}

// baseBaseline fetches the baseline that cfg (a gate definition's config, in def)
// names, as of the base commit, into a temporary directory of its own (with its
// recorded outputs: ghaction.CopyBaseline). When the base has none yet, it
// returns no path and what baseline.Choose is to know of it. source says where it came from ("baselines/x.jsonl@f95f852").
func (c *CLI) baseBaseline(ctx context.Context, in ghaction.CheckInput, cfg *config.Config, def gateDef) (path, source string, missing baseline.Want, err error) {
	if cfg.Baseline == "" {
		return "", "", baseline.Want{Absent: baseline.NoneAtBase}, nil
	}
	abs, _ := filepath.Abs(cfg.Path(cfg.Baseline))
	rel, ok := def.repoPath(abs)
	if !ok {
		return "", "", baseline.Want{}, fmt.Errorf("baseline %s is outside the repository", cfg.Baseline)
	}
	data, read, err := readBaseBaseline(ctx, in.ReadBase, rel)
	if errors.Is(err, github.ErrNotFound) {
		return "", "", absentAtBase(in, cfg, rel), nil
	}
	if err != nil {
		return "", "", baseline.Want{}, fmt.Errorf("reading %s at the base commit: %w", rel, err)
	}
	rel = read
	// In a directory of its own, under its own name, with its recorded outputs beside it
	// as of the base commit: re-scoring reads them there.
	dir, err := os.MkdirTemp("", "evalgate-base-baseline-")
	if err != nil {
		return "", "", baseline.Want{}, err
	}
	p, err := ghaction.CopyBaseline(ctx, in.ReadBase, rel, data, dir)
	if err != nil {
		os.RemoveAll(dir)
		return "", "", baseline.Want{}, fmt.Errorf("reading %s at the base commit: %w", rel, err)
	}
	source = rel
	if in.BaseSHA != "" {
		source += "@" + in.BaseSHA[:min(len(in.BaseSHA), 7)]
	}
	return p, source, baseline.Want{}, nil
}

// readBaseBaseline reads the baseline rel names with read (at the base commit), under
// either name (baseline.Find's rule): X.jsonl, the name `evalgate baseline` writes,
// first, even when rel says X.json, since a refresh may leave X.json behind; then
// X.json. It returns the path it read.
func readBaseBaseline(ctx context.Context, read func(context.Context, string) ([]byte, error), rel string) ([]byte, string, error) {
	names := []string{rel}
	if other := baseline.OtherName(rel); strings.HasSuffix(other, baseline.Ext) {
		names = []string{other, rel}
	} else if other != "" {
		names = append(names, other)
	}
	var data []byte
	var err error
	for _, name := range names {
		if data, err = read(ctx, name); !errors.Is(err, github.ErrNotFound) {
			return data, name, err
		}
	}
	return nil, rel, err
}

// workspaceRoot is the repository's root: GITHUB_WORKSPACE, else the current directory.
func (c *CLI) workspaceRoot() string {
	root := c.Getenv("GITHUB_WORKSPACE")
	if root == "" {
		root, _ = os.Getwd()
	}
	return root
}

// workspacePaths rewrites the paths people read in the comment and the report (the
// suite file of the failing items, the results files, the baseline, the command that
// reproduces the check) relative to the repository root. The container sees the
// workspace at a path of its own, and the base commit's baseline in a temporary file:
// neither means anything to a reviewer, and both would differ from run to run.
func (c *CLI) workspacePaths(r *report.Report, in ghaction.CheckInput) {
	rel := c.workspaceRel()
	r.SuiteFile = rel(r.SuiteFile)
	for i, f := range r.Metadata.ResultsFiles {
		r.Metadata.ResultsFiles[i] = rel(f)
	}
	r.Command = reproduce(c.shownPlan(in), nil)
	if r.Settle != nil && len(r.Settle.Rounds) > 0 {
		// The re-runs were made in the job and are gone with it: settling again is what
		// reproduces the verdict, not the first look alone.
		r.Command += " --settle"
	}
	if len(in.Reports) > 0 {
		r.Command = reportCommand(r.Command, in.Reports, rel)
	}
}

// shownPlan is the check the action runs as the commands it prints name it: its
// inputs as the user gave them, relative to the repository root, never the temporary
// files the action checks (the base commit's config and baseline), which no other
// job has. Every command the comment and the report print starts from it: the
// reproduce line (workspacePaths), and, through CheckOptions.Shown, the settle hints.
func (c *CLI) shownPlan(in ghaction.CheckInput) CheckPlan {
	rel := c.workspaceRel()
	cmd := CheckPlan{Config: rel(in.ConfigPath)}
	for _, f := range in.Results {
		cmd.Results = append(cmd.Results, rel(f))
	}
	if in.BaselineSource != "" {
		// "baselines/x.jsonl@f95f852": the baseline input as of the base commit.
		cmd.Baseline, _, _ = strings.Cut(in.BaselineSource, "@")
	} else if in.BaselinePath != "" {
		cmd.Baseline = rel(in.BaselinePath)
	}
	return cmd
}

// workspaceRel makes a path relative to the repository root (slash-separated), when
// it is under it; other paths are kept as they are.
func (c *CLI) workspaceRel() func(string) string {
	root, _ := filepath.Abs(c.workspaceRoot())
	return func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		if rp, err := filepath.Rel(root, abs); err == nil && rp != ".." && !strings.HasPrefix(rp, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rp)
		}
		return p
	}
}

// reportCommand is the command that gates again on the reports the action gated on:
// check --report for one merged report, merge for shards' partial reports.
func reportCommand(check string, reports []string, rel func(string) string) string {
	if len(reports) == 1 {
		return check + " " + shellFlag("--report", rel(reports[0]))
	}
	cmd := "evalgate merge" + strings.TrimPrefix(check, "evalgate check")
	for _, p := range reports {
		cmd += " " + shellQuote(rel(p))
	}
	return cmd
}

// actionBaseline is evalgate baseline for the action's release mode.
func (c *CLI) actionBaseline(ctx context.Context, in ghaction.BaselineInput) (*ghaction.BaselineOutcome, error) {
	ref := in.Tag
	if ref != "" && !strings.HasPrefix(ref, "refs/") {
		ref = "refs/tags/" + ref
	}
	imp, err := c.actionImport()
	if err != nil {
		return nil, err
	}
	path, b, err := c.MakeBaseline(ctx, BaselineOptions{Config: in.ConfigPath, Results: in.Results, Reports: in.Reports, Out: in.OutPath, Ref: ref, SHA: in.SHA, Import: imp})
	if err != nil {
		return nil, err
	}
	summary := fmt.Sprintf("Baseline for **%s** from %d run(s): mean %.4f ± %.4f, pass rate %.1f%% · %s · %s",
		report.Escape(b.Suite), len(b.Runs), b.Mean, b.Std, 100*b.PassRate, b.ScoringSystem, b.GradingSystem)
	if in.Tag != "" {
		summary += " · release " + report.Escape(in.Tag)
	}
	// The baselines index and recorded outputs kept beside the file belong with it.
	// So do the score's history and the .gitattributes that merges it by union.
	extra := []string{filepath.Join(filepath.Dir(path), baseline.IndexFile), history.PathFor(path), filepath.Join(filepath.Dir(path), ".gitattributes")}
	if b.OutputsFile != "" {
		extra = append(extra, filepath.Join(filepath.Dir(path), b.OutputsFile))
	}
	return &ghaction.BaselineOutcome{Path: path, Score: b.Mean, Summary: summary, Extra: extra}, nil
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, s)
}

// baseHistory reads the history file beside the definition's baseline as of the base
// commit; none there is an empty history.
func (c *CLI) baseHistory(ctx context.Context, in ghaction.CheckInput, cfg *config.Config, def gateDef, copied string) ([]history.Record, error) {
	abs, _ := filepath.Abs(history.PathFor(cfg.Path(cfg.Baseline)))
	rel, ok := def.repoPath(abs)
	if !ok {
		return nil, nil
	}
	if copied != "" {
		// The copy of the base commit's baseline has its history beside it
		// (ghaction.CopyBaseline), which the comparison pooled: read that, not the API
		// again.
		return history.LoadAs(history.PathFor(copied), rel)
	}
	data, err := in.ReadBase(ctx, rel)
	if errors.Is(err, github.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s at the base commit: %w", rel, err)
	}
	return history.Read(rel, bytes.NewReader(data))
}

// runURL is the workflow run's page, where its artifacts (the HTML report) are listed;
// empty outside a workflow run.
func (c *CLI) runURL() string {
	server, repo, id := c.Getenv("GITHUB_SERVER_URL"), c.Getenv("GITHUB_REPOSITORY"), c.Getenv("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" || strings.Trim(id, "0123456789") != "" || strings.ContainsAny(repo, " ()<>") {
		return ""
	}
	return strings.TrimSuffix(server, "/") + "/" + repo + "/actions/runs/" + id
}

// notesNaming rewrites the comparison's notes to name the baseline as the user knows it
// (shown: its path in the repository) where they name the file the action read (file:
// a temporary copy as of the base commit), the commands in them quoted for the new name.
func notesNaming(notes []string, file, shown string) []string {
	if file == shown {
		return notes
	}
	out := make([]string, len(notes))
	for i, n := range notes {
		n = strings.ReplaceAll(n, shellword.Flag("--out", file), shellword.Flag("--out", shown))
		out[i] = strings.ReplaceAll(n, file, shown)
	}
	return out
}
