package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/report"
)

// checkReports gates on shards' reports joined (or on one merged report): the same
// comparison, gates and report as check on the whole suite's results.
func checkReports(ctx context.Context, opts CheckOptions, paths []string) (*report.Report, error) {
	l, err := loadConfigOnly(opts)
	if err != nil {
		return nil, err
	}
	return l.checkReports(ctx, opts, paths)
}

// checkReports is checkReports with the config loaded (the action swaps in the base
// commit's grading system first).
func (l *Loaded) checkReports(ctx context.Context, opts CheckOptions, paths []string) (*report.Report, error) {
	m, err := report.MergeShards(&l.Config.Scoring, paths, opts.Progress)
	opts.Progress.End(err)
	if err != nil {
		return nil, err
	}
	sc, items, first := m.Scored, m.Items, m.First
	l.Index, l.Paths = sc.Suite, first.Metadata.ResultsFiles
	l.fromResults = first.ShardState.SuiteFromResults
	if sh := opts.shown(); len(sh.Results) == 0 && len(l.Paths) > 0 {
		// A report already scored is never settled, and holds no results to re-run
		// items into: the commands it prints to settle name the results files it was
		// scored from, as recorded, never a bare `check --settle` (which would check the
		// config's own results, or none).
		sh.Results = append([]string(nil), l.Paths...)
		opts.Shown = &sh
	}
	stream, err := report.NewItemStream(&l.Config.Scoring)
	if err != nil {
		return nil, err
	}
	for pos, it := range items {
		if err := stream.Put(pos, it.Parts); err != nil {
			stream.Close()
			return nil, err
		}
	}
	r, err := l.decide(ctx, opts, sc, stream)
	if err != nil {
		stream.Close()
		return nil, err
	}
	st := *first.ShardState
	st.Shard, st.Items, st.Runs, st.JudgeCost = "1/1", items, sc.State(), sc.JudgeCost
	r.ShardState = &st
	return r, nil
}

// merge is `evalgate merge`: shards' reports in, the whole suite's report out.
func (c *CLI) merge(args []string) int {
	var o common
	flags := newFlagSet("merge", "merge [--config evalgate.yaml] [--baseline FILE] [--format "+report.FormatChoices(report.Formats)+"] [--out FILE] SHARD.json...\n\nJoins the JSON reports of `evalgate score --shard i/n` (one per shard, e.g. the jobs of a\nCI matrix) into the report of the whole suite, compares it with the baseline and gates it\nas `evalgate check` would on the unsharded results. It refuses shards of other versions,\nsuites or rubrics, a shard given twice and a missing shard.", c.Stderr)
	flags.StringVar(&o.Config, "config", config.DefaultFile, "config `file` the shards were scored with")
	flags.StringVar(&o.Baseline, "baseline", "", "baseline `file`; overrides the config")
	flags.StringVar(&o.Format, "format", report.FormatTable, "output format: "+strings.Join(report.Formats, ", "))
	flags.StringVar(&o.Out, "out", "", "write the report to `file` instead of stdout")
	noBase := flags.Bool("no-baseline", false, "do not compare (as evalgate score)")
	registerQuiet(flags, &o.Quiet)
	// Flags may come before or after the reports.
	if err := flags.Parse(interspersed(flags, args)); err != nil {
		if err == flag.ErrHelp {
			return ExitPass
		}
		return ExitBadInput
	}
	reports := flags.Args()
	if len(reports) == 0 {
		fmt.Fprintln(c.Stderr, "evalgate merge: give the shards' JSON reports (evalgate score --shard i/n --format json --out FILE)")
		return ExitBadInput
	}
	return c.gateReports(o, reports, *noBase, reportPin{})
}

// reportPin is what check --report records as given: --run-id (the report's run_id,
// and the time pinned as check pins it) and --code-version; "" for the defaults.
type reportPin struct{ RunID, CodeVersion string }

// gateReports runs checkReports and emits the report, exit code as check's.
func (c *CLI) gateReports(o common, paths []string, noBaseline bool, pin reportPin) int {
	if err := checkFormat(o.Format); err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	now, err := c.reportTime(pin.RunID)
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	if pin.CodeVersion == "" {
		pin.CodeVersion = c.codeVersion()
	}
	r, err := checkReports(context.Background(), CheckOptions{
		CheckPlan: CheckPlan{
			Config:      o.Config,
			Baseline:    o.Baseline,
			NoBaseline:  noBaseline,
			RunID:       pin.RunID,
			CodeVersion: pin.CodeVersion,
		},
		CheckEnv: CheckEnv{
			Now:       now,
			MaxMemory: limitMemory(memoryFlag{}),
			Progress:  c.meter(o.Quiet, "merging", "items", "building the report"),
		},
	}, paths)
	if err != nil {
		return c.fail(err)
	}
	defer r.Close()
	r.Command = reportCommand(reproduce(CheckPlan{Config: o.Config, Baseline: o.Baseline}, nil), paths, func(p string) string { return p })
	if err := c.emit(r, o.Format, o.Out); err != nil {
		return c.fail(err)
	}
	if noBaseline {
		return ExitPass
	}
	return r.Verdict.ExitCode()
}
