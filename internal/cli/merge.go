package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/progress"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
)

// shardState is what a shard's report carries for merge (and a merged report for
// check --report): every item's place and captured parts, every run's numbers.
func shardState(l *Loaded, sc *rubric.Scored, stream *report.ItemStream) (*report.ShardState, error) {
	st := &report.ShardState{Shard: l.Shard.String(), SuiteFile: sc.Suite.File, SuiteFromResults: l.Config.Suite == "",
		Runs: sc.State(), JudgeCost: sc.JudgeCost}
	st.SuiteItems = l.suiteItems
	for i, it := range sc.Suite.All() {
		parts, err := stream.Captured(i)
		if err != nil {
			return nil, err
		}
		st.Items = append(st.Items, report.ShardItem{Pos: it.Pos, ID: it.ID, Hash: it.Hash, Line: it.Line, Tags: it.Tags, Parts: parts})
	}
	if st.SuiteItems == 0 { // the suite came from the results: every record of the first file
		st.SuiteItems = sc.SuiteRecords
	}
	return st, nil
}

// partial is the part of a shard's report merge reads.
type partial struct {
	file          string
	Suite         string `json:"suite"`
	ScoringSystem string `json:"scoringSystem"`
	GradingSystem string `json:"gradingSystem"`
	SuiteHash     string `json:"suite_hash"`
	RubricHash    string `json:"rubric_hash"`
	Metadata      struct {
		EvalgateVersion string   `json:"evalgate_version"`
		ResultsFiles    []string `json:"results_files"`
	} `json:"metadata"`
	ShardState *report.ShardState `json:"shard_state"`
	shard      eval.Shard
}

func readPartial(path string) (*partial, error) {
	f, err := safeio.Open(path, "report")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var p partial
	if err := json.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&p); err != nil {
		return nil, eval.Errorf(path, 0, "", "not an evalgate JSON report: %v", err)
	}
	p.file = path
	if p.ShardState == nil {
		return nil, eval.Errorf(path, 0, "", "is not a shard's report (no shard_state): make each shard's with `evalgate score --shard i/n --format json --out FILE`")
	}
	if p.shard, err = eval.ParseShard(p.ShardState.Shard); err != nil {
		return nil, eval.Errorf(path, 0, "", "shard_state: %v", err)
	}
	return &p, nil
}

// mergeShards joins shards' reports into the scoring of the whole suite, refusing what
// cannot be one run: other versions, suites or rubrics, a shard given twice, a shard
// or an item missing, an item in two shards.
func mergeShards(sys *rubric.System, paths []string, m *progress.Meter) (*rubric.Scored, []report.ShardItem, *partial, error) {
	var parts []*partial
	for _, p := range paths {
		m.Step("merging: reading " + p)
		pt, err := readPartial(p)
		if err != nil {
			return nil, nil, nil, err
		}
		parts = append(parts, pt)
		m.Add(len(pt.ShardState.Items))
	}
	first := parts[0]
	same := func(what, a, b string, p *partial) error {
		if a == b {
			return nil
		}
		return eval.Errorf(p.file, 0, "", "%s is %q; %s has %q: shards of one run share the evalgate version, the config and the results files",
			what, b, first.file, a)
	}
	byShard := map[int]*partial{}
	for _, p := range parts {
		fs, ps := first.ShardState, p.ShardState
		for _, c := range [][3]string{
			{"evalgate_version", first.Metadata.EvalgateVersion, p.Metadata.EvalgateVersion},
			{"scoringSystem", first.ScoringSystem, p.ScoringSystem},
			{"gradingSystem", first.GradingSystem, p.GradingSystem},
			{"rubric_hash", first.RubricHash, p.RubricHash},
			{"suite", first.Suite, p.Suite},
			{"the suite file", fs.SuiteFile, ps.SuiteFile},
			{"the list of results files", strings.Join(first.Metadata.ResultsFiles, ", "), strings.Join(p.Metadata.ResultsFiles, ", ")},
			{"the suite's size", fmt.Sprint(fs.SuiteItems), fmt.Sprint(ps.SuiteItems)},
		} {
			if err := same(c[0], c[1], c[2], p); err != nil {
				return nil, nil, nil, err
			}
		}
		if !fs.SuiteFromResults {
			if err := same("suite_hash", first.SuiteHash, p.SuiteHash, p); err != nil {
				return nil, nil, nil, err
			}
		}
		if p.shard.Count != first.shard.Count {
			return nil, nil, nil, eval.Errorf(p.file, 0, "", "is shard %s; %s is shard %s: give the shards of one split", p.shard, first.file, first.shard)
		}
		if prev, dup := byShard[p.shard.Index]; dup {
			return nil, nil, nil, eval.Errorf(p.file, 0, "", "overlap: shard %s is given twice (%s and %s)", p.shard, prev.file, p.file)
		}
		byShard[p.shard.Index] = p
	}
	if h := sys.Hash(); h != first.RubricHash {
		return nil, nil, nil, eval.Errorf(first.file, 0, "", "rubric_hash is %q; the config's scoring system hashes to %q: merge with the config the shards were scored with", first.RubricHash, h)
	}
	var missing []string
	for i := 1; i <= first.shard.Count; i++ {
		if byShard[i] == nil {
			missing = append(missing, eval.Shard{Index: i, Count: first.shard.Count}.String())
		}
	}
	if len(missing) > 0 {
		return nil, nil, nil, eval.Errorf(first.file, 0, "", "gap: shard %s missing; give every shard's report", strings.Join(missing, ", "))
	}
	n := first.ShardState.SuiteItems
	items := make([]report.ShardItem, n)
	from := make([]string, n)
	var sps []rubric.ShardPart
	for i := 1; i <= first.shard.Count; i++ {
		p := byShard[i]
		sp := rubric.ShardPart{Runs: p.ShardState.Runs, Judge: p.ShardState.JudgeCost}
		for _, it := range p.ShardState.Items {
			if it.Pos < 0 || it.Pos >= n {
				return nil, nil, nil, eval.Errorf(p.file, 0, it.ID, "place %d is outside the suite's %d items", it.Pos, n)
			}
			if from[it.Pos] != "" {
				return nil, nil, nil, eval.Errorf(p.file, 0, it.ID, "overlap: the item is also in %s", from[it.Pos])
			}
			from[it.Pos], items[it.Pos] = p.file, it
			sp.Pos = append(sp.Pos, it.Pos)
		}
		sps = append(sps, sp)
	}
	var gaps []int
	for pos, f := range from {
		if f == "" {
			gaps = append(gaps, pos+1)
		}
	}
	if len(gaps) > 0 {
		return nil, nil, nil, eval.Errorf(first.file, 0, "", "gap: %d of the suite's %d items are in no shard (item %d first); give every shard's report, scored with the same results files", len(gaps), n, gaps[0])
	}
	fs := first.ShardState
	suite := eval.NewSuite(fs.SuiteFile)
	suite.Name = first.Suite
	for pos, it := range items {
		if err := suite.AddItem(&eval.Item{ID: it.ID, Hash: it.Hash, Line: it.Line, Tags: it.Tags, Pos: pos}); err != nil {
			return nil, nil, nil, err
		}
	}
	if fs.SuiteFromResults {
		suite.Finish()
	} else {
		suite.Hash = first.SuiteHash
	}
	sc, err := rubric.Merge(sys, suite, sps)
	if err != nil {
		return nil, nil, nil, eval.Errorf(first.file, 0, "", "%v", err)
	}
	return sc, items, first, nil
}

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
	sc, items, first, err := mergeShards(&l.Config.Scoring, paths, opts.Progress)
	opts.Progress.End(err)
	if err != nil {
		return nil, err
	}
	l.Suite, l.Paths = sc.Suite, first.Metadata.ResultsFiles
	l.fromResults = first.ShardState.SuiteFromResults
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
	return c.gateReports(o, reports, *noBase)
}

// gateReports runs checkReports and emits the report, exit code as check's.
func (c *CLI) gateReports(o common, paths []string, noBaseline bool) int {
	if err := checkFormat(o.Format); err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	now, err := c.reportTime("")
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	r, err := checkReports(context.Background(), CheckOptions{Config: o.Config, Baseline: o.Baseline, NoBaseline: noBaseline,
		Now: now, CodeVersion: c.codeVersion(), MaxMemory: limitMemory(memoryFlag{}),
		Progress: c.meter(o.Quiet, "merging", "items", "building the report")}, paths)
	if err != nil {
		return c.fail(err)
	}
	defer r.Close()
	r.Command = reportCommand(reproduce(CheckOptions{Config: o.Config, Baseline: o.Baseline}, nil), paths, func(p string) string { return p })
	if err := c.emit(r, o.Format, o.Out); err != nil {
		return c.fail(err)
	}
	if noBaseline {
		return ExitPass
	}
	return r.Verdict.ExitCode()
}
