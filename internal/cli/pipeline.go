package cli

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/diagnose"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/history"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/live"
	"github.com/evalgate/evalgate/internal/progress"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
)

// CheckOptions are the inputs of one check: what to check (the plan, from flags or the
// action's inputs), what the action found out about the pull request, and where the
// check runs (clock, standard input, progress, notices, memory, the judges' settings).
type CheckOptions struct {
	CheckPlan
	ActionState
	CheckEnv
}

// CheckPlan is what to check.
type CheckPlan struct {
	Config     string   // config file
	Results    []string // results files (one per run); empty: the config's
	Baseline   string   // baseline file; empty: the config's
	NoBaseline bool     // score and gate without comparing (evalgate score)
	// Reruns are results files of re-runs of some items (evalgate run --only): each
	// adds a run to the items it holds and to no other.
	Reruns []string
	// Shard, when its Count is over 1, scores only that part of the suite.
	Shard eval.Shard
	// Import says how to read results another tool wrote (promptfoo, lm-eval, Inspect).
	Import importer.Options
	// RunID, when set, is the report's run_id (check --run-id).
	RunID       string
	CodeVersion string
	// JSONOnly: the report is only written as JSON (report.Options.JSONOnly).
	JSONOnly bool
	// Level is the regression test's one-sided level (0: gate.Alpha): settle's looks
	// lower it (internal/settle).
	Level float64
}

// ActionState is what the action found out about the pull request it checks.
type ActionState struct {
	// BaselineMissing, when set, says why there is no baseline to compare with (the
	// action found none at the base commit: baseline.AtBase); the workspace's baseline
	// is not used. MissingBaseline is then the path the config names, when it names one.
	BaselineMissing string
	MissingBaseline string
	// RequireBaseline fails the check when the baseline the config names is missing
	// (the action's require-baseline input); FirstAdoption (the pull request adds
	// evalgate) overrides it.
	RequireBaseline, FirstAdoption bool
	// AcceptedBy and AcceptLabel: a maintainer accepted a regression (the action's
	// accept label); the gate decides what that changes.
	AcceptedBy, AcceptLabel string
	// Unscored are ids the suite lacks whose results are skipped, not refused: the
	// items a pull request's proposed gate adds.
	Unscored map[string]bool
	// Shown, when set, is the check as the commands the report prints name it: the
	// action's inputs as the user gave them, relative to the workspace (shownPlan),
	// not the temporary files the action checks (the base commit's config and
	// baseline, settle's re-runs), which no other job has.
	Shown *CheckPlan
}

// shown is the check as the commands the report prints name it (ActionState.Shown,
// else the plan itself).
func (o CheckOptions) shown() CheckPlan {
	if o.Shown != nil {
		return *o.Shown
	}
	return o.CheckPlan
}

// CheckEnv is where a check runs.
type CheckEnv struct {
	Now time.Time
	// Env is the judges' settings and model client; nil: the defaults (envOrEmpty).
	Env *rubric.Env
	// Stdin is read for the results path "-" (at most once).
	Stdin io.Reader
	// Notice receives what the rubric tests skipped (judge verdicts not cached); nil
	// drops it.
	Notice func(string)
	// Progress counts the records scored (or the items merged) on stderr; nil: silent.
	Progress *progress.Meter
	// MaxMemory, when set, is the heap the scoring may hold (bytes): a suite that needs
	// more stops with an error.
	MaxMemory int64
}

// Loaded is a config with its suite and the results files. Check streams the results;
// LoadRuns reads them into memory for the commands that need every record (validate,
// baseline).
type Loaded struct {
	Config *config.Config
	// Suite is the suite's items: loaded from the suite file, or by LoadRuns from the
	// first results file; nil until then, and nil after a check, whose scoring
	// released them (suiteAgain reads them again).
	Suite *eval.Suite
	// Index is the suite's index: the loaded suite's, then the scored one's (a shard's,
	// or the suite built from the results).
	Index *eval.Index
	Paths []string // results files, one per run; from index full on, re-runs of some items
	full  int      // how many of Paths are full runs
	// way is how the config re-runs items (rerunWayOf), read when it was loaded: a
	// privileged action then drops its `run:` and `rerun:` blocks, so that nothing a
	// pull request wrote runs, yet still prints the commands for an unprivileged job.
	way  rerunWay
	Runs []*eval.Run // after LoadRuns
	// rerunAt is the index in Runs of the first re-run's run: a file another tool wrote
	// holds several runs (promptfoo --repeat, Inspect epochs), all full runs.
	rerunAt int
	Shard   eval.Shard // the part of the suite scored (Count 0 or 1: all of it)
	stdin   io.Reader  // for the results path "-"
	// imported is run metadata the results files carry; format and firstFile are the
	// first file's format, so files of another format are refused.
	imported   map[string]string
	format     importer.Format
	firstFile  string
	importOpts importer.Options
	// fromResults: the suite was built by LoadRuns from the first results file.
	fromResults bool
	// suiteItems is the whole suite's size when a shard of a suite file is scored.
	suiteItems int
	// outputs is what the diagnosis read of the outputs while a streamed check scored.
	outputs *diagnose.Outputs
	// direct are the reads of other tools' results files, scored as they are decoded
	// (directImported): by a check, and by a large baseline (streamLarge).
	direct []*importer.Direct
}

// loadConfigOnly reads the config alone: the first step of Load, and all a merge needs
// (it reads its scores from reports).
func loadConfigOnly(opts CheckOptions) (*Loaded, error) {
	if _, err := os.Stat(opts.Config); errors.Is(err, fs.ErrNotExist) {
		return nil, eval.Errorf(opts.Config, 0, "", "no config file; pass --config FILE or create %s (see README: \"Configuration\")", config.DefaultFile)
	}
	cfg, err := config.Load(opts.Config, envOrEmpty(opts.Env))
	if err != nil {
		return nil, err
	}
	return &Loaded{Config: cfg, way: rerunWayOf(cfg, "")}, nil
}

// Load reads the config and the suite, and finds the results files.
func Load(opts CheckOptions) (*Loaded, error) {
	cl, err := loadConfigOnly(opts)
	if err != nil {
		return nil, err
	}
	cfg := cl.Config
	paths, err := resultsPaths(opts.Results, cfg)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, eval.Errorf(cfg.File, 0, "", "no results: pass --results FILE (repeatable) or list `results:` in the config")
	}
	if i := slices.Index(paths, safeio.Stdin); i >= 0 && slices.Contains(paths[i+1:], safeio.Stdin) {
		return nil, eval.Errorf(cfg.File, 0, "", "--results - (standard input) may be given once")
	}
	if slices.Contains(paths, safeio.Stdin) && opts.Stdin == nil {
		return nil, eval.Errorf(cfg.File, 0, "", "--results - (standard input) is not available here")
	}
	l := &Loaded{Config: cfg, Paths: paths, stdin: opts.Stdin, full: len(paths), importOpts: opts.Import, Shard: opts.Shard}
	for _, p := range opts.Reruns {
		if p == safeio.Stdin {
			return nil, eval.Errorf(cfg.File, 0, "", "--rerun - (standard input) is not supported; give the re-run's results file")
		}
		l.Paths = append(l.Paths, p)
	}
	if err := emptyCutRun(l.Paths); err != nil {
		return nil, err
	}
	if err := l.detectFormat(); err != nil {
		return nil, err
	}
	l.way = rerunWayOf(cfg, l.format)
	if cfg.Suite != "" {
		if err := l.loadSuite(); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// loadSuite reads the config's suite file (the shard's part of it).
func (l *Loaded) loadSuite() error {
	s, err := eval.LoadSuite(l.Config.Path(l.Config.Suite))
	if err != nil {
		return err
	}
	l.Suite, l.suiteItems = s, s.Len()
	if l.Shard.Count > 1 {
		l.Suite = l.Suite.Subset(l.Shard)
	}
	l.Index = l.Suite.Index
	return nil
}

// LoadRuns reads every results file into memory (and the suite from the first, when
// the config names none).
func (l *Loaded) LoadRuns() error {
	l.Runs = nil
	for i, p := range l.Paths {
		if i == l.full {
			l.rerunAt = len(l.Runs)
		}
		var run *eval.Run
		var err error
		if p == safeio.Stdin {
			run, err = eval.ReadRun(stdinName, l.stdin)
		} else if l.format != importer.Evalgate {
			runs, err := l.loadResultsFile(p)
			if err != nil {
				return err
			}
			l.Runs = append(l.Runs, runs...)
			continue
		} else {
			run, err = eval.LoadRun(p)
		}
		if err != nil {
			return err
		}
		l.Runs = append(l.Runs, run)
	}
	if l.full == len(l.Paths) {
		l.rerunAt = len(l.Runs)
	}
	if l.Suite == nil {
		s, err := eval.SuiteFromRun(l.Runs[0])
		if err != nil {
			return err
		}
		l.Suite, l.Index, l.fromResults = s, s.Index, true
	}
	return nil
}

// stdinName labels standard input in messages and reports.
const stdinName = "<stdin>"

// envOrEmpty is env, or one with no judge settings besides the model client when the
// caller gave none.
func envOrEmpty(env *rubric.Env) *rubric.Env {
	if env != nil {
		return env
	}
	return &rubric.Env{Judges: &rubric.Judges{Options: []judge.Option{live.Calls()}}}
}

// Check runs the main job: score, compare with the baseline, gate, build the report.
func Check(ctx context.Context, opts CheckOptions) (*report.Report, error) {
	l, err := Load(opts)
	if err != nil {
		return nil, err
	}
	return l.Check(ctx, opts)
}

// StreamAbove is the size of the results (bytes, all files) above which evalgate
// baseline streams the release (and keeps its recorded outputs in a file beside the
// baseline).
const StreamAbove = 8 << 20

// Check scores the runs and decides the gates, one way for every input: the runs are
// scored as streams (JSONL results files read record by record, other tools' files as
// they are decoded; standard input from memory), keeping compact per-item
// numbers, the report's items in a temporary file, and the diagnosis's look at the
// outputs taken while scoring.
func (l *Loaded) Check(ctx context.Context, opts CheckOptions) (*report.Report, error) {
	if err := l.RunRubricTests(ctx, opts.Notice); err != nil {
		return nil, err
	}
	if total, compressed := l.resultsSize(); compressed {
		tuneGC(4 * total)
	} else {
		tuneGC(total)
	}
	if l.Runs == nil {
		l.directImported()
		defer l.removeConverted()
	}
	if l.Runs == nil && l.held() {
		if err := l.LoadRuns(); err != nil {
			return nil, err
		}
	}
	for attempt := 0; ; attempt++ {
		stream, err := report.NewItemStream(&l.Config.Scoring)
		if err != nil {
			return nil, err
		}
		r, err := l.check(ctx, opts, stream)
		if err == nil {
			return r, nil
		}
		stream.Close()
		// An imported file read as it is decoded may have to be read again, once for each
		// thing a read learns of it (imported.go).
		again, rerr := l.reread(err)
		if rerr != nil {
			return nil, rerr
		}
		if !again || attempt > 2*len(l.direct) {
			return nil, err
		}
	}
}

// held reports whether the results are read into memory before scoring: standard input,
// and other tools' files not read directly (directImported; evalgate baseline reads
// small ones into runs).
func (l *Loaded) held() bool {
	return (l.format != importer.Evalgate && l.direct == nil) || slices.Contains(l.Paths, safeio.Stdin)
}

// large reports whether evalgate baseline streams the results: over above (0:
// StreamAbove; negative: always), or compressed.
func (l *Loaded) large(above int64) bool {
	return !l.held() && l.sizeAbove(above)
}

// sizeAbove reports whether the results are over above bytes (0: StreamAbove;
// negative: always), or compressed.
func (l *Loaded) sizeAbove(above int64) bool {
	if above == 0 {
		above = StreamAbove
	}
	total, compressed := l.resultsSize()
	return compressed || total > above
}

// resultsSize is the size of the results files (bytes on disk), and whether one is
// compressed (then its size says little).
func (l *Loaded) resultsSize() (total int64, compressed bool) {
	for _, p := range l.Paths {
		if eval.Compressed(p) {
			compressed = true
		}
		if st, err := os.Stat(p); err == nil {
			total += st.Size()
		}
	}
	return total, compressed
}

// sources are the runs to score: the loaded ones, or the files streamed.
func (l *Loaded) sources() []rubric.RunSource {
	var out []rubric.RunSource
	if l.direct != nil {
		return l.directSources()
	}
	if l.Runs != nil {
		for i, r := range l.Runs {
			src := rubric.MemoryRun(r)
			src.Partial = i >= l.rerunAt
			out = append(out, src)
		}
		return out
	}
	for i, p := range l.Paths {
		src := rubric.FileRunFor(&l.Config.Scoring, p)
		src.Partial = i >= l.full
		out = append(out, src)
	}
	return out
}

func (l *Loaded) check(ctx context.Context, opts CheckOptions, stream *report.ItemStream) (*report.Report, error) {
	cfg := l.Config
	l.outputs = diagnose.NewOutputs(&cfg.Scoring)
	so := rubric.ScoreOptions{Capture: stream.Capture, OnFirst: stream.PutCaptured, OnFirstFailing: stream.PutFailingCaptured,
		FirstSample: l.outputs.Observe, DropFields: true, MaxMemory: opts.MaxMemory}
	so.Shard = l.Shard
	if len(opts.Unscored) > 0 {
		so.Unscored = func(id string) bool { return opts.Unscored[id] }
	}
	suite := l.Suite
	if l.fromResults {
		suite = nil // built again, of the shard's items
	}
	bpath, _ := l.baselinePath(opts)
	if err := l.panelMomentsFromBaseline(ctx, bpath); err != nil {
		return nil, err
	}
	sc, err := rubric.ScoreRuns(ctx, &cfg.Scoring, suite, withProgress(l.sources(), opts.Progress), so)
	if errors.Is(err, importer.ErrReread) { // read again: the meter goes on, counting from 0
		opts.Progress.Restart()
	} else {
		opts.Progress.End(err)
	}
	if err != nil {
		return nil, err
	}
	l.Suite, l.Index = nil, sc.Suite
	r, err := l.decide(ctx, opts, sc, stream)
	if err != nil {
		return nil, err
	}
	if l.Shard.Count > 0 {
		if r.ShardState, err = report.NewShardState(sc, stream, l.Shard.String(), l.Config.Suite == "", l.suiteItems); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// baselinePath is the baseline file a check compares with: --baseline, else the
// config's; "" when there is none. A name that does not exist is looked for under its
// other extension (X.json ↔ X.jsonl: baseline.Find), and renamed says so.
func (l *Loaded) baselinePath(opts CheckOptions) (path, renamed string) {
	if named := l.namedBaseline(opts); named != "" {
		return baseline.Find(named)
	}
	return "", ""
}

// namedBaseline is the baseline file given (--baseline), else the one the config names;
// "" when there is none.
func (l *Loaded) namedBaseline(opts CheckOptions) string {
	if opts.Baseline != "" {
		return opts.Baseline
	}
	if l.Config.Baseline != "" {
		return l.Config.Path(l.Config.Baseline)
	}
	return ""
}

// decide compares the scored runs with the baseline, decides the gates and builds the
// report: the part of check a merge of shards shares.
func (l *Loaded) decide(ctx context.Context, opts CheckOptions, sc *rubric.Scored, stream *report.ItemStream) (*report.Report, error) {
	cfg := l.Config
	rg := cfg.Grading.RegressionGate()
	var cmp *baseline.Comparison
	var baseMetrics map[string]float64
	var baseRuns map[string][]float64
	bpath, _ := l.baselinePath(opts)
	choice := baseline.Choose(baseline.Want{None: opts.NoBaseline, Absent: opts.BaselineMissing, AbsentFile: opts.MissingBaseline,
		File: l.namedBaseline(opts), Config: cfg.File, Suite: cfg.SuiteName(l.Index), Results: l.Paths[:l.full]})
	if choice.File != "" {
		var b *baseline.Baseline
		hist, err := history.Load(history.PathFor(choice.File))
		if err != nil {
			return nil, err
		}
		if cmp, b, err = baseline.CompareFile(ctx, sc, choice.File, baseline.CompareOptions{RescoreSuite: l.rescoreSuite(stream), MaxMemory: opts.MaxMemory,
			History: history.RunGroups(hist), GradingSystem: cfg.Grading.Version}); err != nil {
			return nil, err
		}
		if choice.Renamed != "" {
			cmp.Notes = append(cmp.Notes, choice.Renamed)
		}
		baseMetrics, baseRuns = b.Metrics, baselineRunMetrics(b)
	}
	v := cfg.Grading.Evaluate(sc, cmp, gate.Inputs{NoBaseline: choice.Why, MissingBaseline: choice.Missing,
		RequireBaseline: opts.RequireBaseline, FirstAdoption: opts.FirstAdoption,
		AcceptedBy: opts.AcceptedBy, AcceptLabel: opts.AcceptLabel, Level: opts.Level,
		Rerun: func(ids []string) (string, string) { return rerunCommand(opts.shown(), l, ids) }})
	cut, err := budgetNotices(l.Paths)
	if err != nil {
		return nil, err
	}
	r, err := report.Build(sc, cmp, v, report.Options{
		Suite: cfg.SuiteName(l.Index), GradingSystem: cfg.Grading.Version, Metadata: l.metadata(),
		Now: opts.Now, RunID: opts.RunID, CodeVersion: opts.CodeVersion, EvalgateVersion: EvalgateVersion(),
		Command: reproduce(opts.shown(), l), Mode: rg.Mode, Stream: stream, JSONOnly: opts.JSONOnly, BudgetCut: cut,
	})
	if err != nil {
		return nil, err
	}
	r.Findings = diagnose.Run(cfg.Diagnose, diagnose.Input{Scored: sc, Comparison: cmp, BaselineMetrics: baseMetrics, BaselineRuns: baseRuns, Outputs: l.outputs})
	if bpath != "" && !opts.NoBaseline {
		if r.History, err = history.Load(history.PathFor(bpath)); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// reproduce is the command that gives the same result locally.
func reproduce(opts CheckPlan, l *Loaded) string {
	parts := []string{"evalgate check"}
	if opts.Config != config.DefaultFile {
		parts = append(parts, shellFlag("--config", opts.Config))
	}
	for _, r := range opts.Results {
		parts = append(parts, shellFlag("--results", r))
	}
	for _, r := range opts.Reruns {
		parts = append(parts, shellFlag("--rerun", r))
	}
	if opts.Baseline != "" {
		parts = append(parts, shellFlag("--baseline", opts.Baseline))
	}
	parts = append(parts, importArgs(opts.Import)...)
	return strings.Join(parts, " ")
}

// baselineRunMetrics are the baseline's per-run latency percentiles: the run-to-run
// spread the diagnosis's drift rule compares with.
func baselineRunMetrics(b *baseline.Baseline) map[string][]float64 {
	out := map[string][]float64{}
	for _, r := range b.Runs {
		if r.P50Ms != nil {
			out[rubric.MetricLatencyE2EP50] = append(out[rubric.MetricLatencyE2EP50], *r.P50Ms)
		}
		if r.P95Ms != nil {
			out[rubric.MetricLatencyE2EP95] = append(out[rubric.MetricLatencyE2EP95], *r.P95Ms)
		}
	}
	return out
}
