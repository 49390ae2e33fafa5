package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
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
)

// maxAnnotatedItems bounds the annotations on newly failing items (the check run batches
// them 50 per request).
const maxAnnotatedItems = 200

// maxFindingAnnotations bounds the notices the diagnosis adds on suite lines.
const maxFindingAnnotations = 50

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

// actionCheck is evalgate check for the action: the gates from the base commit, the
// baseline from the base commit, the report written for upload, the comment rendered.
func (c *CLI) actionCheck(ctx context.Context, in ghaction.CheckInput) (*ghaction.Outcome, error) {
	now, err := c.reportTime("")
	if err != nil {
		return nil, err
	}
	opts := CheckOptions{Config: in.ConfigPath, Results: in.Results,
		Baseline: in.BaselinePath, Now: now, CodeVersion: c.codeVersion(), Env: c.judgeEnv(&common{}),
		AcceptedBy: in.AcceptedBy, AcceptLabel: in.AcceptLabel,
		RequireBaseline: in.RequireBaseline,
		// A pull request whose base commit has no config adds evalgate: a missing
		// baseline never fails it.
		FirstAdoption: in.ReadBase != nil && in.BaseConfigPath == "",
		// Progress of a long scoring goes to the job's log, never into the comment.
		Progress: c.meter(false, "scoring", "records", "building the report")}
	imp, err := c.actionImport()
	if err != nil {
		return nil, err
	}
	opts.Import = imp
	var l *Loaded
	if len(in.Reports) > 0 {
		// A report already scored (merged shards): the config alone, as check --report.
		opts.Progress = c.meter(false, "merging", "items", "building the report")
		l, err = loadConfigOnly(opts)
	} else {
		l, err = Load(opts)
	}
	if err != nil {
		return nil, err
	}
	base, source := l.Config, in.BaselineSource
	if in.BaseConfigPath != "" {
		if base, err = c.baseConfig(in); err != nil {
			return nil, err
		}
		l.Config.Grading = base.Grading
	}
	if in.BaselinePath == "" && in.ReadBase != nil {
		// A pull request: the baseline the base commit's config names, as of the base
		// commit. The pull request's own copy never counts, so it cannot move its own bar.
		path, src, missing, err := c.baseBaseline(ctx, in, base)
		if err != nil {
			return nil, err
		}
		opts.Baseline, opts.BaselineMissing, source = path, missing.why, src
		opts.MissingBaseline = missing.path
		if path != "" {
			defer os.Remove(path)
		}
	}
	var r *report.Report
	if len(in.Reports) > 0 {
		r, err = l.checkReports(ctx, opts, in.Reports)
	} else {
		r, err = l.Check(ctx, opts)
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if in.BaselinePath == "" && in.ReadBase != nil && base.Baseline != "" {
		// The score's history beside the base commit's baseline, read as of the base
		// commit too: the comment sets the last releases next to this pull request.
		if r.History, err = c.baseHistory(ctx, in, base); err != nil {
			return nil, err
		}
	}
	if source != "" && r.Comparison != nil {
		r.Comparison.BaselineFile = source
	}
	// Annotations take the workspace's absolute suite path (ghaction makes it relative
	// to the repository); what people read takes the relative one.
	anns := annotations(r)
	c.workspacePaths(r, in)
	reportPath := filepath.Join(in.ReportDir, "evalgate-report-"+safeName(r.Suite)+".json")
	if err := saveReport(r, report.FormatJSON, reportPath); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	htmlPath := strings.TrimSuffix(reportPath, ".json") + ".html"
	if err := saveReport(r, report.FormatHTML, htmlPath); err != nil {
		return nil, fmt.Errorf("writing the HTML report: %w", err)
	}
	out := &ghaction.Outcome{
		Suite: r.Suite, Verdict: r.Verdict.Status, Blocks: r.Verdict.Blocks, Score: r.Summary.Mean, ReportPath: reportPath, HTMLPath: htmlPath,
		CommentMarkdown: r.Markdown(report.MarkdownOptions{}),
		CheckTitle:      r.Title(),
		FailedHard:      r.Verdict.Blocks,
	}
	out.CheckSummary = out.CommentMarkdown
	for _, g := range r.Gates {
		out.FailedSoft = out.FailedSoft || g.Status == gate.Warn || g.Status == gate.Inconclusive
	}
	if g := r.Grade; g != nil {
		out.Grade = g.Grade
	}
	if cmp := r.Comparison; cmp != nil {
		out.HasBaseline, out.BaselineScore, out.Delta = true, cmp.Base, cmp.Delta
		out.Changed = cmp.Delta != 0 || len(cmp.NewlyFailing)+len(cmp.NewlyPassing) > 0
		for _, d := range cmp.Dimensions {
			out.Changed = out.Changed || d.Delta != 0
		}
	} else {
		out.Changed = true
	}
	out.Annotations = anns
	return out, nil
}

// baseConfig reads the config as of the base commit (in.BaseConfigPath, a temporary
// copy) as if it stood where the workspace's config does, so that its relative paths
// (the suite, a json_schema file, the baseline) resolve in the workspace as
// ghaction.CheckInput documents; beside the temporary copy there is nothing.
func (c *CLI) baseConfig(in ghaction.CheckInput) (*config.Config, error) {
	data, err := safeio.ReadFile(in.BaseConfigPath, "config", safeio.MaxSmallFileBytes)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Parse(in.ConfigPath, data, c.judgeEnv(&common{}))
	if err != nil {
		// Typed, so that the job summary says to fix it on the base branch.
		rel := in.ConfigPath
		if r, rerr := filepath.Rel(c.workspaceRoot(), in.ConfigPath); rerr == nil && !strings.HasPrefix(r, "..") {
			rel = filepath.ToSlash(r)
		}
		return nil, &ghaction.BaseError{Path: rel, Err: err}
	}
	return cfg, nil
}

// baseBaseline fetches the baseline that cfg (the base commit's config, when there is
// one) names, as of the base commit, into a temp file. It returns ("", why, nil) when
// the base has none yet. source says where it came from ("baselines/x.json@f95f852").
func (c *CLI) baseBaseline(ctx context.Context, in ghaction.CheckInput, cfg *config.Config) (path, source string, missing baseMissing, err error) {
	if cfg.Baseline == "" {
		return "", "", baseMissing{why: "no baseline configured: set `baseline:` in the config, and refresh it on release (mode: baseline)"}, nil
	}
	root := c.workspaceRoot()
	abs, _ := filepath.Abs(cfg.Path(cfg.Baseline))
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", "", baseMissing{}, fmt.Errorf("baseline %s is outside the workspace %s", abs, root)
	}
	rel = filepath.ToSlash(rel)
	data, err := in.ReadBase(ctx, rel)
	if errors.Is(err, github.ErrNotFound) {
		if _, err := os.Stat(abs); err == nil {
			// The pull request adds it: it is the baseline from the merge on.
			return "", "", baseMissing{why: fmt.Sprintf("no baseline at %s on the base branch yet: this pull request adds it, and it is compared with once merged", rel)}, nil
		}
		why := "baseline " + rel + " does not exist on the base branch or in this pull request"
		if near := nearestExisting(abs); near != "" {
			if r, err := filepath.Rel(root, near); err == nil {
				why += " (did you mean " + filepath.ToSlash(r) + "?)"
			}
		}
		why += ": the regression gate is skipped. Fix `baseline:` in the config, or merge one made with `evalgate baseline` (or run the action with mode: baseline on release)"
		return "", "", baseMissing{why: why, path: rel}, nil
	}
	if err != nil {
		return "", "", baseMissing{}, fmt.Errorf("reading %s at the base commit: %w", rel, err)
	}
	f, err := os.CreateTemp("", "evalgate-base-baseline-*.json")
	if err != nil {
		return "", "", baseMissing{}, err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		os.Remove(f.Name())
		return "", "", baseMissing{}, err
	}
	source = rel
	if in.BaseSHA != "" {
		source += "@" + in.BaseSHA[:min(len(in.BaseSHA), 7)]
	}
	return f.Name(), source, baseMissing{}, nil
}

// baseMissing says why a pull request has no baseline to compare with; path is set
// when the config names a file that exists neither at the base commit nor in the pull
// request (a missing baseline, which require-baseline fails).
type baseMissing struct{ why, path string }

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
	root, _ := filepath.Abs(c.workspaceRoot())
	rel := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		if rp, err := filepath.Rel(root, abs); err == nil && rp != ".." && !strings.HasPrefix(rp, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rp)
		}
		return p
	}
	r.SuiteFile = rel(r.SuiteFile)
	for i, f := range r.Metadata.ResultsFiles {
		r.Metadata.ResultsFiles[i] = rel(f)
	}
	cmd := CheckOptions{Config: rel(in.ConfigPath)}
	for _, f := range in.Results {
		cmd.Results = append(cmd.Results, rel(f))
	}
	if in.BaselineSource != "" {
		// "baselines/x.json@f95f852": the baseline input as of the base commit.
		cmd.Baseline, _, _ = strings.Cut(in.BaselineSource, "@")
	} else if in.BaselinePath != "" {
		cmd.Baseline = rel(in.BaselinePath)
	}
	r.Command = reproduce(cmd, nil)
	if len(in.Reports) > 0 {
		r.Command = reportCommand(r.Command, in.Reports, rel)
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

// annotations point at the suite lines of newly failing items (failing items when there
// is no baseline): failures for a failed verdict, warnings otherwise.
func annotations(r *report.Report) []github.Annotation {
	level := github.LevelWarning
	if r.Verdict.Blocks {
		level = github.LevelFailure
	}
	title, items := r.Failing()
	var out []github.Annotation
	for i, it := range items {
		if i == maxAnnotatedItems {
			break
		}
		line := max(it.Line, 1) // an imported record in a JSON document has no line: the file's top
		out = append(out, github.Annotation{Path: r.SuiteFile, StartLine: line, EndLine: line, Level: level,
			Title:   fmt.Sprintf("%s: %s", strings.ToLower(strings.TrimSuffix(title, " items")), report.Visible(report.Truncate(it.ID, 80))),
			Message: fmt.Sprintf("score %.3f: %s", it.Score, report.Visible(report.Truncate(it.Reason(), 200)))})
	}
	// Findings that name items point at their suite lines as notices.
	for _, f := range r.Findings {
		for _, it := range f.Items {
			if it.Line > 0 && len(out) < maxAnnotatedItems+maxFindingAnnotations {
				out = append(out, github.Annotation{Path: r.SuiteFile, StartLine: it.Line, EndLine: it.Line, Level: github.LevelNotice,
					Title: "diagnosis: " + f.Rule + ": " + report.Visible(report.Truncate(it.ID, 80)), Message: report.Visible(report.Truncate(strings.ReplaceAll(f.Message, "`", ""), 500))})
			}
		}
	}
	return out
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

// baseHistory reads the history file beside the base config's baseline as of the base
// commit; none there is an empty history.
func (c *CLI) baseHistory(ctx context.Context, in ghaction.CheckInput, cfg *config.Config) ([]history.Record, error) {
	abs, _ := filepath.Abs(history.PathFor(cfg.Path(cfg.Baseline)))
	rel, err := filepath.Rel(c.workspaceRoot(), abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, nil
	}
	rel = filepath.ToSlash(rel)
	data, err := in.ReadBase(ctx, rel)
	if errors.Is(err, github.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s at the base commit: %w", rel, err)
	}
	return history.Read(rel, bytes.NewReader(data))
}
