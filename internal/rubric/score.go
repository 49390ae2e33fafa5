package rubric

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/metrics"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// RunScore is one run (results file) scored: one Sample per suite item, in suite order.
type RunScore struct {
	File string
	// Partial marks a re-run of some items (evalgate run --only): the items it has no
	// result for are not part of it, so they are neither missing nor scored 0, and its
	// run-level metrics stay out of the means over runs.
	Partial bool
	Samples []Sample
	Missing []string // ids of items the run has no result for
	Metrics Metrics
	// Estimates are the metrics estimated from a sketch (percentile.go); nil when every
	// figure is exact.
	Estimates map[string]Estimate
	Model     string // the first model name the run's results record, in suite order
	// CostUnknown lists the models (sorted) whose samples recorded tokens but have no
	// price: the run's cost is then unknown, and its cost metrics are absent.
	CostUnknown []string
}

// ItemScore is one item over all runs: per-run values averaged.
type ItemScore struct {
	// Item is the item's entry in the scored suite's index: its id, line, tags and
	// positions (eval.Index.Brief); its hash is Index.HashOf.
	Item      *eval.Item
	Score     float64    // mean of the per-run scores (missing runs count 0)
	Breakdown []float64  // per dimension: mean normalized value over runs
	Weighted  []float64  // per dimension: mean weighted value over runs
	Raw       []*float64 // per dimension: mean raw value over runs that have one
	// NA is per dimension: n/a (or stale) in every run the item was scored in, so its
	// Breakdown and Weighted hold 0 for no value: the dimension does not apply.
	NA       []bool
	Labels   []string // per dimension: the first run's label (pass_fail scale)
	Errors   []string // per dimension: the first evaluator error seen
	Pass     bool     // passed in at least half the runs
	PassRuns int
	Runs     int
	Missing  int    // runs without a result
	CappedBy string // set when the item was capped in any run
	Pending  bool   // every dimension n/a or stale in every run
	Why      string // why the item failed, from the first failing run
}

// Scored is a suite scored over one or more runs.
type Scored struct {
	System *System
	// Suite is the scored suite's index: its items themselves were the scorer's alone.
	Suite *eval.Index
	Runs  []RunScore
	// Items is every item's score over the runs, in suite order, when the scoring kept
	// them (Score does; a streamed check hands each item to ScoreOptions.OnItem instead).
	Items []ItemScore
	// Metrics is the mean of each per-run metric over runs; MetricsStd its sample std.
	Metrics    Metrics
	MetricsStd Metrics
	// CostUnknown lists what could not be priced in any run or judge ("judge m" for a
	// judge's model), sorted; JudgeCost is the judges' calls priced (nil: no judge).
	CostUnknown []string
	JudgeCost   *JudgeCost
	// SuiteRecords is how many records the first results file held when the suite was
	// built from it (a shard's suite keeps only its share of them).
	SuiteRecords int
	cols         []*sampleCols // per run
}

// suiteFieldError marks a scorer error caused by the suite item rather than the record.
type suiteFieldError struct{ error }

// RunSource is one run's results in file order: an in-memory run, or a results file
// streamed by eval.ScanRun.
type RunSource struct {
	File string
	// Each calls fn with every result in file order, with what prep returned for it;
	// prep may run in parallel (eval.ScanOptions.Prep).
	Each func(prep func(res *eval.Result) any, fn func(res *eval.Result, prepped any) error) error
	// Partial: a re-run of some items only (RunScore.Partial).
	Partial bool
	// Then, when set, gives the runs found while this one was read (the later repeats
	// of another tool's file), scored right after it; until then the run is not taken
	// for the last one.
	Then func() []RunSource
}

// MemoryRun is a source over a loaded run.
func MemoryRun(run *eval.Run) RunSource {
	return RunSource{File: run.File, Each: func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
		for _, res := range run.Results {
			if err := fn(res, prep(res)); err != nil {
				return err
			}
		}
		return nil
	}}
}

// ScoreOptions choose what the scoring keeps and whom it tells.
type ScoreOptions struct {
	// KeepSamples keeps every run's samples with their results (RunScore.Samples) and
	// every item's score (Scored.Items). Without it only compact per-item numbers are
	// held, so a million-item suite fits in well under a gigabyte.
	KeepSamples bool
	// Capture renders what the report needs of an item's first sample (the first run
	// that has a result for it) while the result is in memory: the only time its output
	// can be read. It runs in parallel; for an item no run has a result for it is
	// called at the end with sm nil. OnFirst then receives what it returned, in order.
	Capture func(it *eval.Item, sm *Sample) ([]byte, error)
	OnFirst func(i int, captured []byte) error
	// OnFirstFailing, when set, receives what Capture returned for an item's first
	// failing sample, when the sample OnFirst saw passed: a report shows a failing
	// item's output from a run that failed, not a passing first run's.
	OnFirstFailing func(i int, captured []byte) error
	// Shard, when its Count is over 1, scores only the items of that shard (the
	// suite given is already that shard's, or is built from the results' records of it).
	Shard eval.Shard
	// MaxMemory, when set, bounds the live heap (bytes): past it the scoring stops
	// with an error saying how far it got, rather than the machine running out.
	MaxMemory int64
	// FirstSample, when set, sees each item's first sample (the first run that has a
	// result for it) with its result and the item's fields, one at a time in the order
	// the results are read: what a later stage needs of the outputs (the diagnosis's
	// normalization check) it takes here, since outputs are not kept.
	FirstSample func(i int, it *eval.Item, sm *Sample)
	// DropFields releases each item (eval.Suite.Release: its fields, prompt,
	// references) from the suite given once its last run is scored and OnFirst has seen
	// it. Only a caller that reads nothing more from that suite's items sets it; the
	// scored suite (Scored.Suite) is its index either way.
	DropFields bool
	// Unscored accepts ids the suite lacks whose results are skipped rather than
	// refused: the items a pull request's proposed gate adds, which the base commit's
	// gate does not judge.
	Unscored func(id string) bool
}

// Score scores every run of the suite, keeping every sample. Bad input (a result for
// an unknown item, a missing configured field) is returned as an *eval.InputError.
func Score(ctx context.Context, sys *System, suite *eval.Suite, runs []*eval.Run) (*Scored, error) {
	srcs := make([]RunSource, len(runs))
	for i, r := range runs {
		srcs[i] = MemoryRun(r)
	}
	return ScoreRuns(ctx, sys, suite, srcs, ScoreOptions{KeepSamples: true})
}

// ScoreRuns scores runs read as streams. A nil suite is built from the first run's
// records (the suite fields carried on each record). Each run is read once; per item
// only compact numbers are kept unless opts.KeepSamples.
func ScoreRuns(ctx context.Context, sys *System, suite *eval.Suite, srcs []RunSource, opts ScoreOptions) (*Scored, error) {
	if !sys.Built() {
		return nil, errors.New("rubric: Score called before Build")
	}
	if len(srcs) == 0 {
		return nil, errors.New("no results: give at least one results file")
	}
	building := suite == nil
	if building {
		suite = eval.NewSuite(srcs[0].File)
	}
	out := &Scored{System: sys, Suite: suite.Index}
	nd := len(sys.Dimensions)
	seenFirst := make([]bool, suite.Len())
	firstPassed := make([]bool, suite.Len()) // the sample OnFirst saw passed; none failing since
	inRuns := make([]uint16, suite.Len())    // how many runs have a result for the item
	in := interner{}
	preparing := false
	for _, sc := range sys.scorers {
		_, ok := sc.(Preparer)
		preparing = preparing || ok
	}
	srcs = slices.Clip(srcs) // Then's runs are inserted into a copy
	for r := 0; r < len(srcs); r++ {
		src := srcs[r]
		cols := newCols(nd, suite.Len())
		cols.partial = src.Partial
		cols.pricer = sys.Pricer
		var kept []Sample
		if opts.KeepSamples {
			kept = make([]Sample, suite.Len())
		}
		last := r == len(srcs)-1 && src.Then == nil
		build := building && r == 0
		lines := make([]int32, suite.Len())   // line of the item's result in this run (presentAt)
		seenBefore := slices.Clone(seenFirst) // read by the parallel prep
		passedBefore := slices.Clone(firstPassed)
		var queue []*prepared
		read := 0
		pos := 0 // records of the first file read so far: an item's place in the whole suite
		// prep runs on the decoding workers: it reads the suite and scores, never writes.
		prep := func(res *eval.Result) any {
			p := &prepared{}
			if !opts.Shard.Has(res.ID) {
				p.skip = true
				return p
			}
			if build {
				p.it, p.err = eval.ItemFromResult(src.File, res)
			} else {
				p.it, _ = suite.Item(res.ID)
			}
			if p.it == nil || p.err != nil || preparing {
				return p
			}
			p.ins = sys.inputsFor(p.it, res, r, src.Partial)
			p.score(sys, suite, src.File, opts.Capture, build || !seenBefore[p.it.Index],
				!build && opts.OnFirstFailing != nil && passedBefore[p.it.Index])
			return p
		}
		finish := func(p *prepared) error {
			if p.err != nil {
				return p.err
			}
			idx := p.it.Index
			if opts.KeepSamples {
				kept[idx] = p.sm
			}
			cols.put(idx, &p.sm, in)
			if !seenFirst[idx] {
				seenFirst[idx] = true
				if opts.FirstSample != nil {
					opts.FirstSample(idx, p.it, &p.sm)
				}
				if opts.OnFirst != nil {
					if err := opts.OnFirst(idx, p.captured); err != nil {
						return err
					}
				}
				firstPassed[idx] = p.sm.Pass
			} else if p.failing {
				firstPassed[idx] = false
				if err := opts.OnFirstFailing(idx, p.captured); err != nil {
					return err
				}
			}
			if last && opts.DropFields {
				suite.Release(idx)
			}
			return nil
		}
		err := src.Each(prep, func(res *eval.Result, v any) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if read++; read%memoryCheckEvery == 0 && opts.MaxMemory > 0 {
				if err := checkMemory(opts.MaxMemory, src.File, res.Line, read); err != nil {
					return err
				}
			}
			p := v.(*prepared)
			if p.skip {
				pos++
				return nil
			}
			if build {
				if prev, dup := suite.Find(res.ID); dup {
					return eval.Errorf(src.File, res.Line, res.ID, "duplicate result for the item; first %s", lineWord(presentAt(suite.Line(prev))))
				}
			} else {
				if p.it == nil && opts.Unscored != nil && opts.Unscored(res.ID) {
					return nil // an item a proposed gate adds: scored there, not here
				}
				if i, ok := suite.Find(res.ID); ok && p.it == nil && lines[i] != 0 {
					// Released after its result in this (last) run: a repeat.
					return eval.Errorf(src.File, res.Line, res.ID, "duplicate result for the item; first %s", lineWord(lines[i]))
				}
				if p.it == nil {
					if building {
						return eval.Errorf(src.File, res.Line, res.ID, "no such item in the suite, which comes from the first results file %s; if these files are shards of one run, join their reports with `evalgate merge`", suite.File)
					}
					return eval.Errorf(src.File, res.Line, res.ID, "no such item in suite %s", suite.File)
				}
				if prev := lines[p.it.Index]; prev != 0 {
					return eval.Errorf(src.File, res.Line, res.ID, "duplicate result for the item; first %s", lineWord(prev))
				}
			}
			if p.err != nil {
				return p.err
			}
			if build {
				p.it.Pos = pos
				pos++
				if err := suite.AddItem(p.it); err != nil {
					return err
				}
				seenFirst = append(seenFirst, false)
				firstPassed = append(firstPassed, false)
				lines = append(lines, 0)
				cols.grow(suite.Len())
				if opts.KeepSamples {
					kept = append(kept, Sample{})
				}
			}
			lines[p.it.Index] = presentAt(res.Line)
			if preparing {
				p.ins = sys.inputsFor(p.it, res, r, src.Partial)
				queue = append(queue, p)
				return nil
			}
			return finish(p)
		})
		if err != nil {
			return nil, err
		}
		if build {
			out.SuiteRecords = pos
			if suite.Len() == 0 {
				return nil, eval.Errorf(src.File, 0, "", "results file has no records")
			}
			suite.Finish()
		}
		if preparing {
			for d, sc := range sys.scorers {
				p, ok := sc.(Preparer)
				if !ok {
					continue
				}
				batch := make([]*Input, len(queue))
				for k, q := range queue {
					batch[k] = q.ins[d]
				}
				if err := p.Prepare(ctx, batch); err != nil {
					return nil, fmt.Errorf("dimension %q: %w", sys.Dimensions[d].Name, err)
				}
			}
			for _, q := range queue {
				q.score(sys, suite, src.File, opts.Capture, !seenFirst[q.it.Index], opts.OnFirstFailing != nil && firstPassed[q.it.Index])
				if err := finish(q); err != nil {
					return nil, err
				}
			}
		}
		rs := RunScore{File: src.File, Samples: kept, Partial: src.Partial}
		for len(inRuns) < suite.Len() {
			inRuns = append(inRuns, 0)
		}
		for i := range suite.Len() {
			if lines[i] != 0 && inRuns[i] < math.MaxUint16 {
				inRuns[i]++
			}
			if lines[i] == 0 && !src.Partial {
				rs.Missing = append(rs.Missing, suite.ID(i))
				if opts.KeepSamples {
					kept[i] = missingSample(nd)
				}
			}
		}
		out.cols = append(out.cols, cols)
		out.Runs = append(out.Runs, rs)
		if src.Then != nil {
			srcs = slices.Insert(srcs, r+1, src.Then()...)
		}
	}
	if err := shardsAsRuns(srcs, out.Runs, inRuns); err != nil {
		return nil, err
	}
	for r := range out.Runs {
		out.Runs[r].Metrics, out.Runs[r].Estimates = sys.runMetrics(out.cols[r])
		out.Runs[r].Model = out.cols[r].modelName
	}
	full := make([]RunScore, 0, len(out.Runs))
	for _, r := range out.Runs {
		if !r.Partial {
			full = append(full, r)
		}
	}
	out.Metrics, out.MetricsStd = acrossRuns(full)
	out.addJudgeCost()
	for i := range suite.Len() {
		if !seenFirst[i] && opts.OnFirst != nil {
			var captured []byte
			if opts.Capture != nil {
				var err error
				if captured, err = opts.Capture(suite.At(i), nil); err != nil {
					return nil, err
				}
			}
			if err := opts.OnFirst(i, captured); err != nil {
				return nil, err
			}
		}
	}
	if opts.DropFields {
		suite.ReleaseAll()
	}
	if opts.KeepSamples {
		out.Items = make([]ItemScore, 0, suite.Len())
		var buf []Sample
		for i := range suite.Len() {
			out.Items = append(out.Items, out.ItemAt(i, &buf))
		}
	}
	return out, nil
}

// EachItem calls fn with every item's score over the runs, in suite order. The scores
// are computed as it goes (Items holds them only when the scoring kept samples), in
// one scratch space: is, its slices and its item are valid only during the call —
// copy what you keep (ItemAt gives a score of its own).
func (sc *Scored) EachItem(fn func(i int, is *ItemScore) error) error {
	if len(sc.Items) == sc.Suite.Len() {
		for i := range sc.Items {
			if err := fn(i, &sc.Items[i]); err != nil {
				return err
			}
		}
		return nil
	}
	var scr ItemScratch
	for i := range sc.Suite.Len() {
		if err := fn(i, sc.ItemInto(i, &scr)); err != nil {
			return err
		}
	}
	return nil
}

// ItemAt is item i's score over the runs; buf is scratch space the caller may reuse
// between calls. Calls with separate bufs may run in parallel.
func (sc *Scored) ItemAt(i int, buf *[]Sample) ItemScore {
	if len(sc.Items) == sc.Suite.Len() {
		return sc.Items[i]
	}
	return sc.aggregateItem(i, sc.Suite.Brief(i), buf)
}

// ItemStatus is what ItemAt says of item i's outcome — passed, how many of its runs
// have no result out of how many count, every run pending — read from the columns'
// flags alone, without rebuilding its samples.
func (sc *Scored) ItemStatus(i int) (pass bool, missing, runs int, pending bool) {
	if len(sc.Items) == sc.Suite.Len() {
		is := &sc.Items[i]
		return is.Pass, is.Missing, is.Runs, is.Pending
	}
	passRuns, scored := 0, 0
	for _, c := range sc.cols {
		f := c.flags[i]
		switch {
		case f&fPresent == 0 && c.partial: // a re-run that did not include the item
			continue
		case f&fPresent == 0:
			missing++
			scored++ // a missing sample scores 0
		case f&fPass != 0:
			passRuns++
		}
		runs++
		if f&fPresent != 0 && f&fPending == 0 {
			scored++
		}
	}
	pending = scored == 0
	return !pending && 2*passRuns >= runs, missing, runs, pending
}

// shardsAsRuns refuses two or more results files that are each non-empty, pairwise
// disjoint and together cover the suite: the shards of one run given as runs, which
// would be scored as runs each missing most items. A partial run (a crashed system
// under test) overlaps the others or leaves items uncovered, so it stays a run.
func shardsAsRuns(srcs []RunSource, runs []RunScore, inRuns []uint16) error {
	if len(runs) < 2 {
		return nil
	}
	for _, r := range runs {
		if len(r.Missing) == len(inRuns) {
			return nil // an empty run
		}
	}
	for _, n := range inRuns {
		if n != 1 {
			return nil // an overlap, or an item no file covers
		}
	}
	var files []string
	for _, s := range srcs {
		files = append(files, s.File)
	}
	return eval.Errorf(files[0], 0, "", "the %d results files (%s) share no item and together cover the suite: they look like shards of one run, not %d runs; score each shard with `evalgate score --shard i/n` and join the reports with `evalgate merge`, or give one complete results file per run",
		len(files), strings.Join(files, ", "), len(files))
}

// presentAt marks an item's result as read at line: its line, or -1 for a record with
// no line (one inside a JSON document another tool wrote); 0 means no result yet.
func presentAt(line int) int32 {
	if line <= 0 {
		return -1
	}
	return int32(min(line, math.MaxInt32))
}

// lineWord says where an earlier result was read, for messages.
func lineWord(l int32) string {
	if l < 0 {
		return "earlier in the file"
	}
	return fmt.Sprintf("on line %d", l)
}

// memoryCheckEvery is how many results pass between two looks at the heap.
const memoryCheckEvery = 1 << 14

// liveShare is the share of the memory limit, in tenths, the live heap may reach: past
// it the collector, held to its soft limit (90%), would run almost without pause and
// the check crawl instead of failing.
const liveShare = 8

// checkMemory refuses to go on when the live heap (as of the last collection) is over
// liveShare of the limit.
func checkMemory(limit int64, file string, line, read int) error {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return nil
	}
	if live := s[0].Value.Uint64(); live > uint64(limit)/10*liveShare {
		return fmt.Errorf("%s:%d: the scoring holds %d MiB after %d results, over %d0%% of the memory limit of %d MiB (the rest is the collector's room and the report's): raise --max-memory, or split the suite with --shard i/n and evalgate merge", file, line, live>>20, read, liveShare, limit>>20)
	}
	return nil
}

// prepared is one result on its way through the scoring: its item, its sample, what
// the report captured of it, or the error that stops the scoring.
type prepared struct {
	skip     bool // another shard's item
	it       *eval.Item
	ins      []*Input
	sm       Sample
	captured []byte
	failing  bool // captured as the item's first failing sample (OnFirstFailing)
	err      error
}

// score scores the prepared sample and captures it when it is the item's first
// (first), or its first failing one after a first that passed (refail).
func (p *prepared) score(sys *System, suite *eval.Suite, file string, capture func(*eval.Item, *Sample) ([]byte, error), first, refail bool) {
	p.sm, p.err = sys.scoreSample(p.ins, suite, file)
	if p.err == nil && capture != nil && (first || refail && !p.sm.Pass) {
		p.captured, p.err = capture(p.it, &p.sm)
		p.failing = !first
	}
	p.ins = nil
}

// EachSample calls fn with every sample, run by run, each in suite order. The sample
// carries no result and no notes, and is valid only during the call.
func (sc *Scored) EachSample(fn func(run, item int, sm *Sample)) {
	var sm Sample
	for r, c := range sc.cols {
		for i := range c.len() {
			c.sample(sc.System, i, &sm)
			fn(r, i, &sm)
		}
	}
}

// NumItems is the number of suite items scored.
func (sc *Scored) NumItems() int { return sc.Suite.Len() }

func missingSample(nd int) Sample {
	return Sample{Missing: true, Why: "no result (missing)", Values: make([]Value, nd), Weighted: make([]float64, nd)}
}

// inputsFor builds the per-dimension inputs of one sample, reading a JSON output once;
// rerun marks a re-run of some items (its samples get a draw of their own).
func (s *System) inputsFor(it *eval.Item, res *eval.Result, run int, rerun bool) []*Input {
	ins := make([]*Input, len(s.Dimensions))
	all := make([]Input, len(s.Dimensions)) // one allocation for the dimensions' inputs
	var parsed map[string]any
	parsedOK, tried := false, false
	for d := range s.Dimensions {
		in := &all[d]
		*in = Input{Item: it, Result: res, Run: run, Text: res.Output}
		if rerun {
			in.Draw = run + 1
		}
		if res.Error != "" && res.Output == "" {
			in.TextErr = "the system under test failed: " + res.Error
		}
		if f := s.Dimensions[d].OutputField; f != "" && in.TextErr == "" {
			if !tried {
				tried = true
				parsedOK = json.Unmarshal([]byte(res.Output), &parsed) == nil && parsed != nil
			}
			in.Text, in.TextErr = fieldText(parsed, parsedOK, f)
		}
		ins[d] = in
	}
	return ins
}

func fieldText(obj map[string]any, ok bool, field string) (string, string) {
	if !ok {
		return "", "output is not a JSON object"
	}
	v, found := eval.Lookup(obj, field)
	if !found {
		return "", fmt.Sprintf("output has no field %q", field)
	}
	switch x := v.(type) {
	case string:
		return x, ""
	case nil:
		return "", fmt.Sprintf("output field %q is null", field)
	default:
		b, _ := json.Marshal(x)
		return string(b), ""
	}
}

func (s *System) scoreSample(ins []*Input, suite *eval.Suite, runFile string) (Sample, error) {
	sm := Sample{Values: make([]Value, len(s.Dimensions)), Result: ins[0].Result}
	for d, sc := range s.scorers {
		v, err := sc.Score(ins[d])
		if err != nil {
			return sm, s.inputError(err, ins[d], suite, runFile)
		}
		sm.Values[d] = v
	}
	s.weigh(&sm)
	if !sm.Pending {
		s.capScore(&sm)
	}
	if r := sm.Result; r != nil && (r.Error != "" || r.TimedOut && sm.Pending) {
		// An errored sample fails with score 0 whatever its dimensions say: n/a
		// everywhere (a provider error leaves no assertion scored) must not make it
		// pending, which would leave it out of the mean and the pass rate it lowers. A
		// timed-out one keeps the score of what it answered (it fails all the same),
		// unless it answered nothing scorable.
		sm.Pending, sm.Score = false, 0
	}
	pass, why, err := s.passes(&sm)
	if err != nil {
		return sm, s.inputError(err, ins[0], suite, runFile)
	}
	sm.Pass, sm.Why = pass, why
	return sm, nil
}

func (s *System) inputError(err error, in *Input, suite *eval.Suite, runFile string) error {
	var ie *eval.InputError
	if errors.As(err, &ie) {
		return ie
	}
	var sfe suiteFieldError
	if errors.As(err, &sfe) {
		return eval.Errorf(suite.File, in.Item.Line, in.Item.ID, "%v", sfe.error)
	}
	return eval.Errorf(runFile, in.Result.Line, in.Item.ID, "%v", err)
}

// aggregateItem averages item i's samples over runs.
func (sc *Scored) aggregateItem(i int, it *eval.Item, buf *[]Sample) ItemScore {
	// One allocation per type: the item's slices share them (a caller may keep them).
	nd := len(sc.System.Dimensions)
	return sc.aggregate(i, it, buf, make([]float64, 4*nd), make([]string, 2*nd), make([]*float64, nd), make([]bool, nd))
}

// ItemScratch is space ItemInto reuses from one item to the next.
type ItemScratch struct {
	samples []Sample
	floats  []float64
	strs    []string
	raw     []*float64
	na      []bool
	item    eval.Item
	is      ItemScore
}

// ItemInto is ItemAt in the scratch space: the score (its slices, its item) is valid
// until the next call with the same scratch. For a caller that keeps nothing of it.
func (sc *Scored) ItemInto(i int, s *ItemScratch) *ItemScore {
	if len(sc.Items) == sc.Suite.Len() {
		return &sc.Items[i]
	}
	nd := len(sc.System.Dimensions)
	if len(s.floats) != 4*nd {
		s.floats, s.strs, s.raw, s.na = make([]float64, 4*nd), make([]string, 2*nd), make([]*float64, nd), make([]bool, nd)
	}
	clear(s.floats)
	clear(s.strs)
	clear(s.raw)
	s.is = sc.aggregate(i, sc.Suite.BriefInto(i, &s.item), &s.samples, s.floats, s.strs, s.raw, s.na)
	return &s.is
}

// aggregate averages item i's samples over runs into the given (zeroed) space:
// floats 4 × dimensions, strs 2 ×, raw and na 1 × (na is overwritten).
func (sc *Scored) aggregate(i int, it *eval.Item, buf *[]Sample, floats []float64, strs []string, raw []*float64, na []bool) ItemScore {
	s := sc.System
	nd := len(s.Dimensions)
	runs := len(sc.cols)
	for len(*buf) < runs {
		*buf = append(*buf, Sample{})
	}
	is := ItemScore{Item: it, Runs: runs, Breakdown: floats[:nd:nd], Weighted: floats[nd : 2*nd : 2*nd],
		Raw: raw, Labels: strs[:nd:nd], Errors: strs[nd:], NA: na[:nd:nd]}
	rawSum, rawMean := floats[2*nd:3*nd], floats[3*nd:]
	var counts [32]int
	cnt := counts[:]
	if 2*nd > len(counts) {
		cnt = make([]int, 2*nd)
	}
	rawN, normN := cnt[:nd], cnt[nd:2*nd]
	scored := 0
	for r := range runs {
		if c := sc.cols[r]; c.partial && c.flags[i]&fPresent == 0 {
			is.Runs-- // a re-run that did not include the item
			continue
		}
		sm := &(*buf)[r]
		sc.cols[r].sample(s, i, sm)
		if sm.Missing {
			is.Missing++
		}
		if sm.Pass {
			is.PassRuns++
		} else if is.Why == "" {
			is.Why = sm.Why
		}
		if sm.CappedBy != "" && is.CappedBy == "" {
			is.CappedBy = sm.CappedBy
		}
		if sm.Pending {
			continue
		}
		scored++
		is.Score += sm.Score
		for d, v := range sm.Values {
			if is.Labels[d] == "" {
				is.Labels[d] = v.Label
			}
			if is.Errors[d] == "" {
				is.Errors[d] = v.Error
			}
			if v.Excluded {
				continue
			}
			is.Breakdown[d] += v.Norm
			is.Weighted[d] += sm.Weighted[d]
			normN[d]++
			if v.Raw != nil {
				rawSum[d] += *v.Raw
				rawN[d]++
			}
		}
	}
	if scored == 0 {
		is.Pending = true
	} else {
		is.Score = Round9(is.Score / float64(scored))
	}
	for d := 0; d < nd; d++ {
		is.NA[d] = normN[d] == 0
		if normN[d] > 0 {
			is.Breakdown[d] = Round9(is.Breakdown[d] / float64(normN[d]))
			is.Weighted[d] = Round9(is.Weighted[d] / float64(normN[d]))
		}
		if rawN[d] > 0 {
			rawMean[d] = Round9(rawSum[d] / float64(rawN[d]))
			is.Raw[d] = &rawMean[d]
		}
	}
	// Across N runs an item passes if it passed in at least half of them.
	is.Pass = !is.Pending && 2*is.PassRuns >= is.Runs
	return is
}

// SampleAt rebuilds run r's sample of item i into sm (without its result and notes),
// reusing sm's slices: a baseline reads each item's runs from it without the samples kept.
func (sc *Scored) SampleAt(r, i int, sm *Sample) { sc.cols[r].sample(sc.System, i, sm) }
