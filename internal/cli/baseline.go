package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/history"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/progress"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
)

// BaselineOptions are the inputs of `evalgate baseline`.
type BaselineOptions struct {
	Config  string
	Results []string
	// Reports, instead of Results: a merged report (evalgate merge --format json) or
	// every shard's partial report. The baseline then keeps no recorded outputs.
	Reports []string
	Out     string
	Ref     string
	SHA     string
	judge   common // judge flags
	check   judgeCheckFlags
	Import  importer.Options
	// MaxMemory bounds the heap of a streamed (large) release's scoring, in bytes.
	MaxMemory int64
	// StreamAbove overrides the results size above which the release is streamed
	// (StreamAbove; negative: always, as for compressed results).
	StreamAbove int64
	// now is when the baseline is made (MakeBaseline sets it: reportTime).
	now time.Time
}

func (c *CLI) baseline(args []string) int {
	var o BaselineOptions
	var results multiFlag
	fs := newFlagSet("baseline", "baseline [--config evalgate.yaml] (--results run1.jsonl --results run2.jsonl --results run3.jsonl | --report merged.json) [--out baselines/SUITE.jsonl] [RESULTS...]\n\nWrites the stable distribution of a release from its runs (3 or more): each item's mean,\nspread and passes, and the judges' reliability; pull requests are compared with it. It also\nappends a line to the score's history beside it (SUITE.history.jsonl) and updates index.json.\nWith SOURCE_DATE_EPOCH set, that is the time they record, so the same runs write the same files.\nResults files may also be given as arguments, each as one --results.", c.Stderr)
	fs.StringVar(&o.Config, "config", "evalgate.yaml", "config `file`")
	fs.Var(&results, "results", "results `file` of one release run, or a quoted pattern (repeatable; use ≥ 3 runs)")
	var reports multiFlag
	fs.Var(&reports, "report", "instead of --results: a merged report `file` (written by evalgate merge --format json --out FILE), or each shard's partial report (repeatable); the baseline then keeps no recorded outputs")
	fs.StringVar(&o.Out, "out", "", "baseline `file` to write (default: the config's baseline); a baseline is JSON Lines: X.json is written as X.jsonl")
	fs.StringVar(&o.Ref, "ref", c.Getenv("GITHUB_REF"), "source ref recorded in the baseline (default $GITHUB_REF)")
	fs.StringVar(&o.SHA, "sha", c.Getenv("GITHUB_SHA"), "source commit recorded in the baseline (default $GITHUB_SHA)")
	fs.BoolVar(&o.judge.NoCache, "no-cache", false, "llm_judge: neither read nor write the judge cache")
	fs.BoolVar(&o.judge.Replay, "judge-replay", false, "llm_judge: answer from the judge cache only; a miss is an error")
	fs.IntVar(&o.check.Sample, "judge-sample", reliability.DefaultSample, "llm_judge: outputs re-judged to measure the judges' reliability (all if fewer; at least 2)")
	fs.IntVar(&o.check.Repeats, "judge-repeats", reliability.DefaultRepeats, "llm_judge: judgments of each sampled output, cache bypassed (at least 2)")
	fs.BoolVar(&o.check.Skip, "no-judge-check", false, "llm_judge: do not measure the judges' reliability")
	o.judge.Import.register(fs)
	registerQuiet(fs, &o.judge.Quiet)
	var maxMem memoryFlag
	fs.Var(&maxMem, "max-memory", "`size` of memory the scoring may hold (e.g. 512MiB, 4GiB; default 1GiB); a release that needs more stops with an error")
	files, code, ok := parseWithFiles(fs, args, true)
	if !ok {
		return code
	}
	results = append(results, files...)
	if !o.check.Skip && (o.check.Sample < 2 || o.check.Repeats < 2) { // agreement needs two outputs judged twice
		fmt.Fprintf(c.Stderr, "evalgate: --judge-sample %d --judge-repeats %d; want at least 2 of each (or --no-judge-check): agreement is measured between judgments of several outputs\n", o.check.Sample, o.check.Repeats)
		return ExitBadInput
	}
	o.MaxMemory = limitMemory(maxMem)
	imp, err := o.judge.Import.options(c.Stderr)
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	o.Import = imp
	o.Results, o.Reports = results, reports
	if len(reports) > 0 && len(results) > 0 {
		fmt.Fprintf(c.Stderr, "evalgate: --report makes the baseline from reports already scored: drop --results\n")
		return ExitBadInput
	}
	path, b, err := c.MakeBaseline(context.Background(), o)
	if err != nil {
		return c.fail(err)
	}
	fmt.Fprintf(c.Stdout, "wrote %s: %s, %s, %d run(s), mean %.4f ± %.4f, pass rate %.1f%%\n",
		path, b.ScoringSystem, b.GradingSystem, len(b.Runs), b.Mean, b.Std, 100*b.PassRate)
	return ExitPass
}

// MakeBaseline scores a release's runs and writes the stable distribution and the
// baselines index beside it. It returns the path written.
//
// The baseline records when it was made (created_at, also its history line's date and
// the index's): SOURCE_DATE_EPOCH when set, as check's reports, so two baselines of the
// same runs are byte-identical, with their history and index, however the clock moved;
// else the clock. A bad SOURCE_DATE_EPOCH is refused before anything is scored.
func (c *CLI) MakeBaseline(ctx context.Context, o BaselineOptions) (string, *baseline.Baseline, error) {
	var err error
	if o.now, err = c.reportTime(""); err != nil {
		return "", nil, err
	}
	if len(o.Reports) > 0 {
		return c.baselineFromReports(o)
	}
	l, err := Load(CheckOptions{CheckPlan: CheckPlan{Config: o.Config, Results: o.Results, Import: o.Import}, CheckEnv: CheckEnv{Env: c.judgeEnv(&o.judge), Stdin: c.Stdin}})
	if err != nil {
		return "", nil, err
	}
	if err := budgetCutRefusal(l.Paths); err != nil {
		return "", nil, err
	}
	m := c.meter(o.judge.Quiet, "scoring", "records", "writing the baseline")
	// Over StreamAbove: scored as a stream, items written one by one, outputs beside.
	streamed := l.streamLarge(o.StreamAbove)
	defer l.removeConverted()
	if !streamed {
		if err := l.LoadRuns(); err != nil {
			return "", nil, err
		}
	}
	cfg := l.Config
	out, named, err := baselineOut(cfg, o.Out)
	if err != nil {
		return "", nil, err
	}
	thin := func(runs int) {
		if w := gate.ThinBaseline(runs); w != "" {
			fmt.Fprintf(c.Stderr, "warning: %s\n", w)
		}
	}
	if l.direct == nil {
		thin(len(l.sources()))
	}
	so := rubric.ScoreOptions{KeepSamples: true}
	if streamed {
		so = rubric.ScoreOptions{DropFields: true, MaxMemory: o.MaxMemory}
	}
	sc, err := l.scoreAll(ctx, so, m)
	m.End(err)
	if err != nil {
		return "", nil, err
	}
	if l.direct != nil { // how many runs a file read directly holds, its read tells
		thin(len(sc.Runs))
	}
	if streamed {
		l.Suite = nil // the scoring released its items
	}
	sc, moments, rel, err := c.judgeBaseline(ctx, l, sc, o, streamed)
	if err != nil {
		return "", nil, err
	}
	bo := baselineOptions(cfg, sc, o)
	var b *baseline.Baseline
	if streamed {
		b = baseline.HeaderOf(sc, bo)
	} else {
		b = baseline.FromScored(sc, bo)
	}
	b.Suite = cfg.SuiteName(sc.Suite)
	b.PanelMoments, b.JudgeReliability = moments, rel
	if b.JudgeCalibration, err = c.baselineCalibration(ctx, l, &o.judge); err != nil {
		return "", nil, err
	}
	for i := range b.Runs {
		b.Runs[i].File = relTo(filepath.Dir(out), b.Runs[i].File)
	}
	c.warnUnbumped(cfg, out, b)
	if streamed {
		// The recorded outputs go beside the baseline, copied from the results files.
		if b.OutputsFile, err = baseline.SaveOutputsFrom(out, l.streamedFiles()); err != nil {
			return "", nil, err
		}
		err = baseline.SaveScored(out, b, sc)
	} else {
		err = baseline.Save(out, b)
	}
	if err != nil {
		return "", nil, err
	}
	return out, b, c.recordBaseline(out, named, b, o.Ref)
}

// scoreAll scores the runs once, reading an imported file read directly again when its
// read stops to start over (importer.ErrReread; see Check), the meter counting from 0.
func (l *Loaded) scoreAll(ctx context.Context, so rubric.ScoreOptions, m *progress.Meter) (*rubric.Scored, error) {
	for attempt := 0; ; attempt++ {
		sc, err := rubric.ScoreRuns(ctx, &l.Config.Scoring, l.Suite, withProgress(l.sources(), m), so)
		again, rerr := l.reread(err)
		if rerr != nil {
			return nil, rerr
		}
		if !again || attempt > 2*len(l.direct) {
			return sc, err
		}
		m.Restart()
	}
}

// warnUnbumped says on stderr when b, about to be written at out, changes the
// rubric without bumping the scoring version since the baseline before it there, or
// the config's (unbumpedScoring).
func (c *CLI) warnUnbumped(cfg *config.Config, out string, b *baseline.Baseline) {
	configured := ""
	if cfg.Baseline != "" {
		configured = cfg.Path(cfg.Baseline)
	}
	if w := unbumpedScoring(out, configured, b); w != "" {
		fmt.Fprintf(c.Stderr, "warning: %s\n", w)
	}
}

// baselineOut is where the baseline goes: --out, else the config's baseline, under the
// name baselines are written as (X.json becomes X.jsonl: baseline.FileName). named is
// the name asked for, which recordBaseline mentions when it differs.
func baselineOut(cfg *config.Config, out string) (path, named string, err error) {
	if out == "" {
		if cfg.Baseline == "" {
			return "", "", fmt.Errorf("no --out and no `baseline:` in %s: say where to write the baseline", cfg.File)
		}
		out = cfg.Path(cfg.Baseline)
	}
	return baseline.FileName(out), out, nil
}

// baselineOptions are the baseline's source, versions and grade (graded as a release,
// without a baseline), and when it was made (o.now).
func baselineOptions(cfg *config.Config, sc *rubric.Scored, o BaselineOptions) baseline.Options {
	grade := ""
	if v := cfg.Grading.Evaluate(sc, nil, gate.Inputs{}); v.Grade != nil {
		grade = v.Grade.Grade
	}
	return baseline.Options{Source: baseline.Source{Ref: o.Ref, SHA: o.SHA}, GradingSystem: cfg.Grading.Version, Grade: grade, Now: o.now}
}

// recordBaseline updates what goes with a baseline just written at out, asked for as
// named: the baselines index beside it and the score's history. When out is not the
// name asked for (X.json, written as X.jsonl), it says so on stderr.
func (c *CLI) recordBaseline(out, named string, b *baseline.Baseline, ref string) error {
	if old := baseline.OldFile(out); old != "" {
		// The same baseline under its old name (X.json beside the new X.jsonl): left,
		// it would be read as a stale baseline by a config naming it.
		if err := os.Remove(old); err != nil {
			return fmt.Errorf("removing the old baseline file: %w", err)
		}
		fmt.Fprintf(c.Stderr, "removed %s: the baseline is JSON Lines, now written as %s (a config naming %s finds it; rename it there when convenient)\n",
			old, out, filepath.Base(old))
	} else if named != out {
		fmt.Fprintf(c.Stderr, "wrote the baseline to %s, not %s: a baseline is JSON Lines, so it is written as .jsonl (a config or --baseline naming %s finds it, with a notice; name it %s there)\n",
			out, named, filepath.Base(named), filepath.Base(out))
	}
	if err := baseline.UpdateIndex(filepath.Dir(out)); err != nil {
		return fmt.Errorf("baselines index: %w", err)
	}
	rec := historyRecord(b, ref)
	if rec.Commit == "" {
		rec.Commit = c.codeVersion() // idempotent per commit also when run by hand
	}
	if _, err := history.Append(history.PathFor(out), rec); err != nil {
		return fmt.Errorf("score history: %w", err)
	}
	return nil
}

// baselineFromReports is MakeBaseline over reports already scored (merged shards): the
// same figures as from the release's results files, without the recorded outputs
// (the shards' results files are not at hand), so a later scoring change cannot
// re-score it: the comparison then says to refresh it.
func (c *CLI) baselineFromReports(o BaselineOptions) (string, *baseline.Baseline, error) {
	l, err := loadConfigOnly(CheckOptions{CheckPlan: CheckPlan{Config: o.Config}, CheckEnv: CheckEnv{Env: c.judgeEnv(&o.judge)}})
	if err != nil {
		return "", nil, err
	}
	cfg := l.Config
	out, named, err := baselineOut(cfg, o.Out)
	if err != nil {
		return "", nil, err
	}
	m := c.meter(o.judge.Quiet, "merging", "items", "writing the baseline")
	merged, err := report.MergeShards(&cfg.Scoring, o.Reports, m)
	m.End(err)
	if err != nil {
		return "", nil, err
	}
	sc := merged.Scored
	if w := gate.ThinBaseline(len(sc.Runs)); w != "" {
		fmt.Fprintf(c.Stderr, "warning: %s\n", w)
	}
	b := baseline.HeaderOf(sc, baselineOptions(cfg, sc, o))
	b.Suite = cfg.SuiteName(sc.Suite)
	absOut, _ := filepath.Abs(out)
	for i := range b.Runs {
		// The shards named their results files from where they ran: here, as a rule.
		f, _ := filepath.Abs(b.Runs[i].File)
		b.Runs[i].File = relTo(filepath.Dir(absOut), f)
	}
	c.warnUnbumped(cfg, out, b)
	if err := baseline.SaveScored(out, b, sc); err != nil {
		return "", nil, err
	}
	return out, b, c.recordBaseline(out, named, b, o.Ref)
}

func relTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// historyRecord is the compact line a baseline refresh adds to the score's history.
func historyRecord(b *baseline.Baseline, ref string) history.Record {
	rec := history.Record{Release: ref, Date: b.CreatedAt, Commit: b.Source.SHA, Mean: b.Mean, Std: b.Std,
		Runs: len(b.Runs), PassRate: b.PassRate, Dimensions: b.Dimensions, ScoringSystem: b.ScoringSystem,
		GradingSystem: b.GradingSystem, RubricHash: b.RubricHash}
	if v, ok := b.Metrics[rubric.MetricCostUSD]; ok {
		rec.CostUSD = &v
	}
	if v, ok := b.Metrics[rubric.MetricJudgeCostUSD]; ok {
		rec.JudgeCostUSD = &v
	}
	return rec
}

// rescoreSuite gives the suite file's items again, with their fields, for re-scoring a
// baseline's recorded outputs after a scoring change, when a streamed check released
// them once scored. A suite built from the results needs none: the recorded records
// carry the same suite fields, which the scorers read when the item has none left.
func (l *Loaded) rescoreSuite(stream *report.ItemStream) func() (*eval.Suite, error) {
	if stream == nil || l.Config.Suite == "" {
		return nil
	}
	return l.suiteAgain
}

// suiteAgain reads the suite's items again, after a check whose scoring released them:
// the suite file (the shard's part of it), or the first results file's records when
// the suite comes from the results (an evalgate JSONL file; other tools' files and
// standard input are not read twice).
func (l *Loaded) suiteAgain() (*eval.Suite, error) {
	cfg := l.Config
	var s *eval.Suite
	var err error
	switch {
	case cfg.Suite != "":
		s, err = eval.LoadSuite(cfg.Path(cfg.Suite))
	case len(l.Paths) == 0 || l.Paths[0] == safeio.Stdin || l.format != importer.Evalgate:
		return nil, eval.Errorf(cfg.File, 0, "", "the suite comes from results that cannot be read again; name a suite file in `suite:`")
	default:
		var run *eval.Run
		if run, err = eval.LoadRun(l.Paths[0]); err == nil {
			s, err = eval.SuiteFromRun(run)
		}
	}
	if err != nil || l.Shard.Count <= 1 {
		return s, err
	}
	return s.Subset(l.Shard), nil
}
