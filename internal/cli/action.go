package cli

import (
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
	"github.com/evalgate/evalgate/internal/report"
)

// maxAnnotatedItems bounds the annotations on newly failing items (the check run batches
// them 50 per request).
const maxAnnotatedItems = 200

func (c *CLI) action(args []string) int {
	if len(args) > 0 {
		fmt.Fprintln(c.Stderr, "Usage: evalgate action\n\nThe GitHub Action's entrypoint: every setting comes from INPUT_* and GITHUB_* variables\n(see action.yml and docs/action.md). It takes no flags.")
		if args[0] == "-h" || args[0] == "--help" {
			return ExitPass
		}
		return ExitBadInput
	}
	return ghaction.Run(context.Background(), ghaction.Env{Getenv: c.Getenv, Stdout: c.Stdout}, c.actionCheck, c.actionBaseline)
}

// actionCheck is evalgate check for the action: the gates from the base commit, the
// baseline from the base commit, the report written for upload, the comment rendered.
func (c *CLI) actionCheck(ctx context.Context, in ghaction.CheckInput) (*ghaction.Outcome, error) {
	opts := CheckOptions{Config: in.ConfigPath, Results: in.Results, GradingFrom: in.BaseConfigPath,
		Baseline: in.BaselinePath, Now: c.Now(), CodeVersion: c.codeVersion(), Env: c.judgeEnv(&common{})}
	if in.BaselinePath == "" && in.ReadBase != nil {
		// A pull request: the baseline the config names, as of the base commit. The
		// pull request's own copy never counts, so it cannot move its own bar.
		path, missing, err := c.baseBaseline(ctx, in)
		if err != nil {
			return nil, err
		}
		opts.Baseline, opts.BaselineMissing = path, missing
		if path != "" {
			defer os.Remove(path)
		}
	}
	r, err := Check(ctx, opts)
	if err != nil {
		return nil, err
	}
	if in.BaselineSource != "" && r.Comparison != nil {
		r.Comparison.BaselineFile = in.BaselineSource
	}
	onlyRegression := r.Verdict.Status == gate.Fail
	for _, g := range r.Gates {
		if g.Status == gate.Fail && g.Kind != gate.KindRegression {
			onlyRegression = false
		}
	}
	verdict := ghaction.Verdict(r.Verdict.Status)
	if onlyRegression && in.AcceptedBy != "" {
		// The check concludes neutral; Run puts who accepted it at the top of the comment.
		verdict = ghaction.VerdictAccepted
		r.Verdict.AcceptedBy = in.AcceptedBy
		r.Verdict.Status = string(ghaction.VerdictAccepted)
		r.Verdict.Reason = "regression accepted with the " + in.AcceptLabel + " label: " + r.Verdict.Reason
	}
	reportPath := filepath.Join(in.ReportDir, "evalgate-report-"+safeName(r.Suite)+".json")
	var buf strings.Builder
	if err := r.WriteJSON(&buf); err != nil {
		return nil, err
	}
	if err := baseline.WriteFileAtomic(reportPath, []byte(buf.String())); err != nil {
		return nil, fmt.Errorf("writing the report: %w", err)
	}
	out := &ghaction.Outcome{
		Suite: r.Suite, Verdict: verdict, Score: r.Summary.Mean, ReportPath: reportPath,
		CommentMarkdown: r.Markdown(report.MarkdownOptions{}),
		CheckTitle:      r.Title(),
		FailedHard:      verdict == ghaction.VerdictFail,
	}
	out.CheckSummary = out.CommentMarkdown
	for _, g := range r.Gates {
		out.FailedSoft = out.FailedSoft || g.Status == gate.Warn
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
	out.Annotations = annotations(r)
	return out, nil
}

// baseBaseline fetches the config's baseline as of the base commit into a temp file.
// It returns ("", why, nil) when the base has none yet.
func (c *CLI) baseBaseline(ctx context.Context, in ghaction.CheckInput) (string, string, error) {
	cfg, err := config.Load(in.ConfigPath, c.judgeEnv(&common{}))
	if err != nil {
		return "", "", err
	}
	if cfg.Baseline == "" {
		return "", "no baseline configured: set `baseline:` in the config, and refresh it on release (mode: baseline)", nil
	}
	root := c.Getenv("GITHUB_WORKSPACE")
	if root == "" {
		root, _ = os.Getwd()
	}
	abs, _ := filepath.Abs(cfg.Path(cfg.Baseline))
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", "", fmt.Errorf("baseline %s is outside the workspace %s", abs, root)
	}
	rel = filepath.ToSlash(rel)
	data, err := in.ReadBase(ctx, rel)
	if errors.Is(err, github.ErrNotFound) {
		return "", fmt.Sprintf("no baseline at %s on the base branch yet: merge one made with `evalgate baseline` (or run the action with mode: baseline on release)", rel), nil
	}
	if err != nil {
		return "", "", fmt.Errorf("reading %s at the base commit: %w", rel, err)
	}
	f, err := os.CreateTemp("", "evalgate-base-baseline-*.json")
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return "", "", err
	}
	return f.Name(), "", nil
}

// annotations point at the suite lines of newly failing items (failing items when there
// is no baseline): failures for a failed verdict, warnings otherwise.
func annotations(r *report.Report) []github.Annotation {
	level := github.LevelWarning
	if r.Verdict.Status == gate.Fail {
		level = github.LevelFailure
	}
	title, items := r.Failing()
	var out []github.Annotation
	for i, it := range items {
		if i == maxAnnotatedItems {
			break
		}
		out = append(out, github.Annotation{Path: r.SuiteFile, StartLine: it.Line, EndLine: it.Line, Level: level,
			Title:   fmt.Sprintf("%s: %s", strings.ToLower(strings.TrimSuffix(title, " items")), report.Truncate(it.ID, 80)),
			Message: fmt.Sprintf("score %.3f: %s", it.Score, report.Truncate(it.Reason(), 200))})
	}
	return out
}

// actionBaseline is evalgate baseline for the action's release mode.
func (c *CLI) actionBaseline(ctx context.Context, in ghaction.BaselineInput) (*ghaction.BaselineOutcome, error) {
	ref := in.Tag
	if ref != "" && !strings.HasPrefix(ref, "refs/") {
		ref = "refs/tags/" + ref
	}
	path, b, err := c.MakeBaseline(ctx, BaselineOptions{Config: in.ConfigPath, Results: in.Results, Out: in.OutPath, Ref: ref, SHA: in.SHA})
	if err != nil {
		return nil, err
	}
	summary := fmt.Sprintf("Baseline for **%s** from %d run(s): mean %.4f ± %.4f, pass rate %.1f%% · %s · %s",
		report.Escape(b.Suite), len(b.Runs), b.Mean, b.Std, 100*b.PassRate, b.ScoringSystem, b.GradingSystem)
	if in.Tag != "" {
		summary += " · release " + report.Escape(in.Tag)
	}
	return &ghaction.BaselineOutcome{Path: path, Score: b.Mean, Summary: summary}, nil
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, s)
}
