package baseline

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/shellword"
	"github.com/evalgate/evalgate/internal/stats"
	"github.com/evalgate/evalgate/internal/topk"
)

// Comparison is a candidate set against the baseline: what changed, measured. It
// decides nothing; gate reads it and decides.
type Comparison struct {
	BaselineFile  string  `json:"baseline_file"`
	BaselineRef   Source  `json:"baseline_source"`
	ScoringSystem string  `json:"baseline_scoringSystem"`
	GradingSystem string  `json:"baseline_gradingSystem"`
	BaselineRuns  int     `json:"baseline_runs"`
	BaselineStd   float64 `json:"baseline_std"`
	// CandidateRuns is the largest number of runs any compared candidate item has
	// (items re-run on their own have more than the rest).
	CandidateRuns int `json:"candidate_runs"`
	// Base and Cand are the means over the compared (unchanged) items.
	Base     float64 `json:"baseline_score"`
	Cand     float64 `json:"candidate_score"`
	Delta    float64 `json:"delta"`          // Cand − Base, absolute points of the 0–1 score
	RelDelta float64 `json:"relative_delta"` // Delta / Base
	// CI is the 95% interval of the mean paired per-item difference (stats.MeasureDrop).
	CI          stats.Interval `json:"ci"`
	PValue      float64        `json:"p_value"`       // two-sided
	PValueWorse float64        `json:"p_value_worse"` // one-sided, "candidate worse"
	// Evidence is the item-by-item measurement against what the baseline's runs
	// predict (stats.EvidenceAccumulator); EvidenceItems its strongest items.
	Evidence      stats.EvidenceResult `json:"evidence"`
	EvidenceItems []EvidenceItem       `json:"evidence_items"`
	Dimensions    []DimensionDelta     `json:"dimensions"`
	Tags          []DimensionDelta     `json:"tags,omitempty"`
	// Item changes, in suite order, at most MaxItemChanges each (the items that moved
	// most); the counts are set only when a list was cut: read NumNewlyFailing etc.
	NewlyFailing      []ItemChange `json:"newly_failing"`
	NewlyPassing      []ItemChange `json:"newly_passing"`
	Unstable          []ItemChange `json:"unstable"`
	NewlyFailingCount int          `json:"newly_failing_count,omitempty"`
	NewlyPassingCount int          `json:"newly_passing_count,omitempty"`
	UnstableCount     int          `json:"unstable_count,omitempty"`
	// BiggestDrops are the items whose score fell most, largest fall first, at most
	// MaxBiggestDrops, whether or not their pass state moved (0.70 → 0.20 while already
	// failing is a movement too).
	BiggestDrops []ItemChange `json:"biggest_drops"`
	Changed      []string     `json:"changed_items,omitempty"`
	Added        []string     `json:"added_items,omitempty"`
	Removed      []string     `json:"removed_items,omitempty"`
	Compared     int          `json:"compared_items"`
	// Rescored is set when the baseline's recorded outputs were re-scored under the
	// candidate's scoring system (seed 004: a scoring change triggers re-scoring).
	Rescored bool `json:"rescored"`
	// ScoringUnbumped says the rubric changed while its version did not, and names the
	// version to write; empty otherwise. Unbumped is the same, typed: reports show it at
	// the top, within the changed-judge warning when a changed judge is why the rubric
	// moved.
	ScoringUnbumped string    `json:"scoring_unbumped,omitempty"`
	Unbumped        *Unbumped `json:"-"`
	Notes           []string  `json:"notes,omitempty"`
	// JudgeChanges are the judges that differ from the ones the baseline was made with;
	// OldJudge is then the comparison with the baseline's own (old-judge) figures,
	// shown beside the like-for-like one and never used for the verdict.
	JudgeChanges []reliability.Change `json:"judge_changes,omitempty"`
	OldJudge     *OldJudge            `json:"old_judge,omitempty"`
	// JudgeReliability is the baseline's measurement of its judges' self-agreement, for
	// the judged dimensions whose judges are still the ones it measured;
	// JudgeUnmeasured are those whose judge changed since, so that its self-agreement
	// is unknown (the old judge's figure is not borrowed).
	JudgeReliability *reliability.Measurement `json:"judge_reliability,omitempty"`
	JudgeUnmeasured  []reliability.Unmeasured `json:"judge_unmeasured,omitempty"`
	// JudgeCalibration is the baseline's measurement of its judges' agreement with
	// people (the config's calibration set).
	JudgeCalibration *reliability.Calibration `json:"judge_calibration,omitempty"`
	// BaselineMetrics are the metrics the baseline recorded (the means over its runs),
	// for gates on a metric's change (max_increase). A baseline older than a metric
	// lacks it.
	BaselineMetrics map[string]float64 `json:"-"`
	// baseScores holds every compared item's baseline score (BaseScore).
	baseScores *baseScores
}

// EvidenceTop is how many of the strongest items a comparison keeps as evidence.
const EvidenceTop = 10

// MaxBiggestDrops caps Comparison.BiggestDrops.
const MaxBiggestDrops = 10

// DimensionDelta is the baseline and candidate mean of one dimension (or tag).
type DimensionDelta struct {
	Name  string  `json:"name"`
	Base  float64 `json:"baseline"`
	Cand  float64 `json:"candidate"`
	Delta float64 `json:"delta"`
	// Items is, for a tag, its items; for a dimension, the compared items it applies to
	// on both sides, when that is fewer than all (n/a elsewhere): its figures are over them.
	Items int `json:"items,omitempty"`
	// NA says the dimension applies to no compared item: it has no figures.
	NA bool `json:"na,omitempty"`
	// CI is the 95% interval of the dimension's mean paired per-item difference
	// (dimensions only): a bootstrap like the score's, or the normal approximation above
	// stats.MaxResampleItems items.
	CI *stats.Interval `json:"ci,omitempty"`
	// Evidence is the dimension's item-by-item measurement (dimensions only).
	Evidence      *stats.EvidenceResult `json:"evidence,omitempty"`
	EvidenceItems []EvidenceItem        `json:"evidence_items,omitempty"`
	// BaseFailures is the baseline's number of failures of the dimension (a mean over
	// its runs), so a report can show the change rather than a bare count; absent when
	// the baseline was re-scored or does not record it.
	BaseFailures *float64 `json:"baseline_failures,omitempty"`
}

// ItemChange is one item whose pass state or score moved.
type ItemChange struct {
	ID           string  `json:"id"`
	Line         int     `json:"line"`
	BaseScore    float64 `json:"baseline_score"`
	CandScore    float64 `json:"candidate_score"`
	BasePassRate float64 `json:"baseline_pass_rate"`
	CandPass     bool    `json:"candidate_pass"`
}

// EvidenceItem is one item that carries the evidence of a drop: what the baseline's
// runs predicted for it and what the candidate scored.
type EvidenceItem struct {
	ID           string  `json:"id"`
	Line         int     `json:"line,omitempty"`
	BaseScore    float64 `json:"baseline_score"`
	BaseRuns     int     `json:"baseline_runs"`
	BasePassRate float64 `json:"baseline_pass_rate"`
	// Predicted is the score the baseline predicts (its runs, shrunk toward the suite).
	Predicted float64 `json:"predicted"`
	CandScore float64 `json:"candidate_score"`
	CandRuns  int     `json:"candidate_runs"`
	// Z is how many predicted standard deviations the candidate fell below Predicted.
	Z float64 `json:"z"`
}

// MismatchError refuses a comparison that cannot be made honestly.
type MismatchError struct{ Msg string }

func (e *MismatchError) Error() string { return e.Msg }

// CompareFile sets the candidate against the baseline file at path: Compare over the
// file read as a stream.
func CompareFile(ctx context.Context, cand *rubric.Scored, path string, opts CompareOptions) (*Comparison, *Baseline, error) {
	r, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return Compare(ctx, cand, r, opts)
}

// Compare sets the candidate against the baseline r reads, item by item: it keeps the
// baseline's header and a few numbers per item, never its items whole nor its recorded
// outputs, which it reads only to re-score them after a scoring change. It refuses a
// baseline that holds an item twice. It returns the baseline's header too (its metrics
// and versions). r must not have been read yet.
func Compare(ctx context.Context, cand *rubric.Scored, r *Reader, opts CompareOptions) (*Comparison, *Baseline, error) {
	r.skipRepeats = true // refused below, from the columns, without a map of every id
	b := r.Header()
	cs := scoredSide(cand)
	bs := newBaseSide(cs.n, cs.dims)
	for {
		it, ok, err := r.Next()
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		pos := r.Line()
		first := 0
		if i, hash, ok := cs.find(it.ID); !ok {
			if first = bs.removedAt[it.ID]; first == 0 {
				bs.removedAt[it.ID] = pos
				bs.removed = append(bs.removed, it.ID)
			}
		} else if bs.flags[i]&sidePresent != 0 {
			first = int(bs.line[i])
		} else {
			bs.put(i, &it, hash, pos)
		}
		if first != 0 {
			return nil, nil, r.repeatError(it.ID, first)
		}
	}
	c, err := compareScored(ctx, cand, b, r.path, bs, cs, r.recorded(), opts)
	return c, b, err
}

// CompareOptions are what Compare needs besides the candidate and the baseline.
type CompareOptions struct {
	// RescoreSuite, when set, gives the suite with its items' fields, to re-score the
	// baseline's recorded outputs against after a scoring change: the candidate's
	// scoring keeps only the suite's index. Called only to re-score. Nil: the index's
	// entries (eval.SuiteOf), the items without their fields.
	RescoreSuite func() (*eval.Suite, error)
	// MaxMemory bounds the live heap while re-scoring (rubric.ScoreOptions.MaxMemory).
	MaxMemory int64
	// History are earlier releases' runs of the suite (baselines/<suite>.history), each
	// a group whose run-to-run spread adds to what the baseline's runs say about
	// run-level noise.
	History []stats.RunGroup
	// GradingSystem is the grading system the comparison is gated under; when the
	// baseline names another, a note says the comparison is re-graded.
	GradingSystem string
}

// ownRecord says a history group is the baseline's own record: its commit, or, when
// either has no commit, its run count and std. Two releases with commits of their own
// are never the same record, however alike their spreads (an all-pass suite's records
// all have std 0).
func ownRecord(g stats.RunGroup, b *Baseline) bool {
	if g.Source != "" && b.Source.SHA != "" {
		return g.Source == b.Source.SHA
	}
	return g.Runs == len(b.Runs) && math.Abs(g.Std-b.Std) < 1e-9
}

// compareScored is Compare once the baseline's items are in bs: it re-scores the
// recorded outputs (rec) when the scoring changed, then measures.
func compareScored(ctx context.Context, cand *rubric.Scored, b *Baseline, file string, bs *baseSide, cs candSide, rec recorded, opts CompareOptions) (*Comparison, error) {
	for _, g := range opts.History {
		// The baseline's own record (its commit, or its run count and std when either
		// has no commit) is counted from the baseline's runs already.
		if !ownRecord(g, b) {
			bs.history = append(bs.history, g)
		}
	}
	sys := cand.System
	var notes []string
	rescored := false
	var unbumped *Unbumped
	switch {
	case b.RubricHash != sys.Hash() || b.ScoringSystem != sys.Version:
		runs, err := rescoreInto(ctx, cand, b, file, bs, rec, opts)
		if err != nil {
			return nil, err
		}
		rescored = true
		if b.ScoringSystem == sys.Version {
			// Only the rubric hash moved: say so, rather than "1.0.0 → 1.0.0".
			unbumped = &Unbumped{Version: sys.Version, FromHash: b.RubricHash, ToHash: sys.Hash(), Runs: runs}
		} else {
			notes = append(notes, fmt.Sprintf("scoring changed (%s → %s%s): the baseline's %d recorded run(s) were re-scored under %s",
				b.ScoringSystem, sys.Version, hashNote(b.RubricHash, sys.Hash()), runs, sys.Version))
		}
	case b.FormatV1 && rec.runs > 0:
		if _, err := rescoreInto(ctx, cand, b, file, bs, rec, opts); err != nil {
			return nil, err
		}
		notes = append(notes, fmt.Sprintf("baseline %s is format version 1: its %d recorded run(s) were re-scored for per-item spread; refresh it with `evalgate baseline %s` to save the work", file, rec.runs, shellword.Flag("--out", file)))
	case b.FormatV1:
		notes = append(notes, fmt.Sprintf("baseline %s is format version 1 without recorded outputs: per-item spread is read from pass rates only; refresh it with `evalgate baseline --results RUN.jsonl %s`", file, shellword.Flag("--out", file)))
	}
	c, err := comparePairs(b, bs, cs, file, stats.ResampleOptions{})
	if err != nil {
		return nil, err
	}
	c.Rescored, c.Unbumped = rescored, unbumped
	if unbumped != nil {
		c.ScoringUnbumped = unbumped.String()
	}
	c.BaselineMetrics = b.ComparableMetrics()
	if !rescored { // re-scored, the baseline's recorded failure counts are another rubric's
		for i := range c.Dimensions {
			if f, ok := b.Metrics[rubric.DimensionMetric(c.Dimensions[i].Name, rubric.SuffixFailures)]; ok {
				c.Dimensions[i].BaseFailures = &f
			}
		}
	}
	c.Notes = append(notes, c.Notes...)
	judgeSides(c, b, sys)
	if g := opts.GradingSystem; b.GradingSystem != "" && g != "" && b.GradingSystem != g {
		c.Notes = append(c.Notes, fmt.Sprintf("grading changed (%s → %s): the comparison is re-graded under %s; scores are unaffected", b.GradingSystem, g, g))
	}
	return c, nil
}

// rescoreInto re-scores the baseline's recorded outputs and puts the figures in bs; it
// returns how many recorded runs it read.
func rescoreInto(ctx context.Context, cand *rubric.Scored, b *Baseline, file string, bs *baseSide, rec recorded, opts CompareOptions) (int, error) {
	var suite *eval.Suite
	if opts.RescoreSuite != nil {
		var err error
		if suite, err = opts.RescoreSuite(); err != nil {
			return 0, err
		}
	} else {
		suite = eval.SuiteOf(cand.Suite)
	}
	return rescore(ctx, cand, suite, b, rec, file, bs, opts.MaxMemory)
}

// Candidate is one item of the side compared with the baseline.
type Candidate struct {
	ID, Hash string
	Line     int
	Tags     []string
	Score    float64
	Runs     int     // runs the item was scored in (≥ 1)
	PassRate float64 // fraction of the candidate's runs the item passed in
	Pass     bool
	Pending  bool
	// Breakdown is the mean normalized value of each compared dimension, in the
	// comparison's dimension order; NaN, or true in NA, where the dimension is n/a.
	Breakdown []float64
	NA        []bool
	// Rounds, when HasRounds, splits Score into the full runs' mean and the item's
	// re-runs (rubric.Scored.RoundsOf); valid only during the call, like the rest.
	Rounds    rubric.ItemRounds
	HasRounds bool
	// Bits, when HasBits, are the item's pass/fail scores in each of the candidate's
	// BitRuns ≥ 2 full runs (bit r: run r passed), for the run-level noise.
	Bits    uint64
	BitRuns int
	HasBits bool
}

// candSide is the side compared with the baseline: n items found by id, handed out in
// order one at a time.
type candSide struct {
	n int
	// runMeans are the candidate's full runs' suite means (re-runs of some items left
	// out), for the run-level noise.
	runMeans []float64
	dims     []string
	// find returns an item's position and hash.
	find func(id string) (int, string, bool)
	// each calls fn with every item in order; c is valid only during the call.
	each func(fn func(i int, c *Candidate) error) error
	// at names item i for the reviewer's lists.
	at func(i int) (id string, line int)
}

// scoredSide is a scored candidate, item by item from its compact scores.
func scoredSide(sc *rubric.Scored) candSide {
	var dims []string
	for _, d := range sc.System.Dimensions {
		dims = append(dims, d.Name)
	}
	var means []float64
	for _, r := range sc.Runs {
		if m, ok := r.Metrics[rubric.MetricMeanScore]; ok && !r.Partial {
			means = append(means, m)
		}
	}
	return candSide{n: sc.NumItems(), dims: dims, runMeans: means,
		find: func(id string) (int, string, bool) {
			i, ok := sc.Suite.Find(id)
			if !ok {
				return 0, "", false
			}
			return i, sc.Suite.HashOf(i), true
		},
		each: func(fn func(int, *Candidate) error) error {
			var c Candidate
			var sm rubric.Sample
			var rounds []float64
			reruns := sc.HasRounds()
			return sc.EachItem(func(i int, is *rubric.ItemScore) error {
				runs := max(is.Runs, 1)
				c = Candidate{ID: is.Item.ID, Hash: sc.Suite.HashOf(i), Line: is.Item.Line, Tags: is.Item.Tags, Score: is.Score,
					Runs: runs, PassRate: float64(is.PassRuns) / float64(runs), Pass: is.Pass, Pending: is.Pending,
					Breakdown: is.Breakdown, NA: is.NA}
				if reruns {
					c.Rounds, c.HasRounds = sc.RoundsOf(i, &sm, rounds)
					rounds = c.Rounds.Rounds
				}
				if len(means) >= 2 {
					c.Bits, c.BitRuns, c.HasBits = scoredBits(sc, i, &sm)
				}
				return fn(i, &c)
			})
		},
		at: func(i int) (string, int) { return sc.Suite.ID(i), sc.Suite.Line(i) },
	}
}

// scoredBits are item i's pass/fail scores in the scored candidate's full runs (bit r:
// the r-th full run passed), when there are two or more, none is pending and every score
// is a pass (1) or a fail (0).
func scoredBits(sc *rubric.Scored, i int, sm *rubric.Sample) (uint64, int, bool) {
	var b uint64
	n := 0
	for r := range sc.Runs {
		if sc.Runs[r].Partial {
			continue
		}
		if n == 64 {
			return 0, 0, false
		}
		sc.SampleAt(r, i, sm)
		switch {
		case sm.Pending, sm.Score != 0 && sm.Score != 1, (sm.Score == 1) != sm.Pass:
			return 0, 0, false
		case sm.Pass:
			b |= 1 << n
		}
		n++
	}
	return b, n, n >= 2
}

// snapshotSide is a saved distribution compared as the candidate.
func snapshotSide(b *Baseline, dims []string) candSide {
	pos := make(map[string]int, len(b.Items))
	for i, it := range b.Items {
		pos[it.ID] = i
	}
	return candSide{n: len(b.Items), dims: dims, runMeans: b.runMeans(),
		find: func(id string) (int, string, bool) {
			i, ok := pos[id]
			if !ok {
				return 0, "", false
			}
			return i, b.Items[i].Hash, true
		},
		each: func(fn func(int, *Candidate) error) error {
			c := Candidate{Breakdown: make([]float64, len(dims))}
			for i := range b.Items {
				it := &b.Items[i]
				c = Candidate{ID: it.ID, Hash: it.Hash, Tags: it.Tags, Score: it.Score, Runs: max(it.Runs, 1), PassRate: it.PassRate,
					Pass: it.PassRate >= 0.5, Breakdown: c.Breakdown}
				if it.Rounds != nil {
					c.Rounds, c.HasRounds = *it.Rounds, true
				}
				c.Bits, c.BitRuns, c.HasBits = fullRunBits(it)
				for d, name := range dims {
					c.Breakdown[d] = breakdownOf(it, name)
				}
				if err := fn(i, &c); err != nil {
					return err
				}
			}
			return nil
		},
		at: func(i int) (string, int) { return b.Items[i].ID, 0 },
	}
}

// CompareSnapshots compares two saved distributions (baselines, or reports turned
// into baselines): a release-to-release diff. A scoring difference is flagged in the
// notes, since neither side carries a scorer to re-score with.
func CompareSnapshots(a, b *Baseline, fileA string) (*Comparison, error) {
	return CompareSnapshotsWith(a, b, fileA, stats.ResampleOptions{})
}

// CompareSnapshotsWith is CompareSnapshots with the resampling options of the plain
// measurements (the simulation measures analytically: stats.ResampleOptions.Analytic)
// and earlier releases' runs of the suite (CompareOptions.History), pooled into the
// run-level noise.
func CompareSnapshotsWith(a, b *Baseline, fileA string, ro stats.ResampleOptions, history ...stats.RunGroup) (*Comparison, error) {
	var dims []string
	for d := range a.Dimensions {
		if _, ok := b.Dimensions[d]; ok {
			dims = append(dims, d)
		}
	}
	sort.Strings(dims)
	cs := snapshotSide(b, dims)
	bs := newBaseSide(cs.n, dims)
	bs.history = history
	for k := range a.Items {
		it := &a.Items[k]
		if i, hash, ok := cs.find(it.ID); ok {
			bs.put(i, it, hash, k+1)
		} else {
			bs.removed = append(bs.removed, it.ID)
		}
	}
	c, err := comparePairs(a, bs, cs, fileA, ro)
	if err != nil {
		return nil, err
	}
	if a.ScoringSystem != b.ScoringSystem || a.RubricHash != b.RubricHash {
		c.Notes = append([]string{fmt.Sprintf("⚠ different scoring systems (%s, rubric sha256 %.12s vs %s, %.12s): scores are not comparable item by item; re-score both under one scoring system", a.ScoringSystem, a.RubricHash, b.ScoringSystem, b.RubricHash)}, c.Notes...)
	}
	return c, nil
}

// compared is the candidate side of the compared items, in candidate order (k): the
// baseline side is bs's columns, compacted to the same positions.
type compared struct {
	idx  []int32 // candidate position
	cand []float64
	runs []int32
	dims [][]float64
	// rounds are the re-run items' scores split by kind of run, by k (few items: those
	// a re-run held).
	rounds map[int]rubric.ItemRounds
	// bits are the items' per-run scores in the candidate's full runs (Candidate.Bits),
	// while every item so far had them over the same runs (bitRuns; 0: not every item).
	bits    []uint64
	bitRuns int
}

// comparePairs pairs the candidate's items with the baseline's and measures the change.
func comparePairs(b *Baseline, bs *baseSide, cs candSide, file string, ro stats.ResampleOptions) (*Comparison, error) {
	c := &Comparison{BaselineFile: file, BaselineRef: b.Source, ScoringSystem: b.ScoringSystem,
		GradingSystem: b.GradingSystem, BaselineRuns: len(b.Runs), BaselineStd: b.Std}
	nd := len(cs.dims)
	cm := compared{dims: make([][]float64, nd)}
	type tagAcc struct {
		base, cand float64
		n          int
	}
	tags := map[string]*tagAcc{}
	var drops topDrops
	failing, passing, unstable := changeList{limit: MaxItemChanges}, changeList{limit: MaxItemChanges}, changeList{limit: MaxItemChanges}
	c.baseScores = newBaseScores(cs)
	err := cs.each(func(i int, ci *Candidate) error {
		f := bs.flags[i]
		if f&sidePresent != 0 {
			c.baseScores.score[i] = bs.score[i] // read before a later item's move overwrites it
		}
		switch {
		case f&sidePresent == 0:
			c.Added = append(c.Added, ci.ID)
			return nil
		case f&sideChanged != 0:
			c.Changed = append(c.Changed, ci.ID)
			return nil
		case ci.Pending:
			return nil
		}
		k := len(cm.idx)
		bs.move(k, i)
		cm.idx = append(cm.idx, int32(i))
		cm.cand = append(cm.cand, ci.Score)
		cm.runs = append(cm.runs, int32(min(max(ci.Runs, 1), 1<<31-1)))
		c.CandidateRuns = max(c.CandidateRuns, ci.Runs)
		cm.addBits(k, ci)
		if ci.HasRounds {
			if cm.rounds == nil {
				cm.rounds = map[int]rubric.ItemRounds{}
			}
			ir := ci.Rounds
			ir.Rounds = append([]float64(nil), ir.Rounds...)
			cm.rounds[k] = ir
		}
		for d := range nd {
			v := ci.Breakdown[d]
			if ci.NA != nil && ci.NA[d] {
				v = math.NaN() // n/a: the dimension does not apply to the item
			}
			cm.dims[d] = append(cm.dims[d], v)
		}
		baseScore := bs.score[k]
		for _, t := range ci.Tags {
			if tags[t] == nil {
				tags[t] = &tagAcc{}
			}
			tags[t].base += baseScore
			tags[t].cand += ci.Score
			tags[t].n++
		}
		ch := ItemChange{ID: ci.ID, Line: ci.Line, BaseScore: baseScore, CandScore: ci.Score, BasePassRate: bs.passRate[k], CandPass: ci.Pass}
		switch {
		case stats.Unstable(ch.BasePassRate):
			unstable.add(ch, k, ch.BaseScore-ch.CandScore)
		case ch.BasePassRate == 1 && !ci.Pass:
			failing.add(ch, k, ch.BaseScore-ch.CandScore)
		case ch.BasePassRate == 0 && ci.Pass:
			passing.add(ch, k, ch.CandScore-ch.BaseScore)
		}
		if rubric.Round9(ch.BaseScore-ch.CandScore) > 0 {
			drops.add(ch)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.NewlyFailing, c.NewlyFailingCount = failing.list()
	c.NewlyPassing, c.NewlyPassingCount = passing.list()
	c.Unstable, c.UnstableCount = unstable.list()
	c.Removed = bs.removed
	c.Compared = len(cm.idx)
	if c.Compared == 0 {
		return nil, &MismatchError{Msg: fmt.Sprintf("baseline %s shares no unchanged item with the suite (%d changed, %d added, %d removed): refresh it with `evalgate baseline`", file, len(c.Changed), len(c.Added), len(c.Removed))}
	}
	if len(c.Changed)+len(c.Added)+len(c.Removed) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("suite changed since the baseline: %d changed, %d added, %d removed item(s) are left out; %d unchanged item(s) compared",
			len(c.Changed), len(c.Added), len(c.Removed), c.Compared))
		for _, l := range []struct {
			what string
			ids  []string
		}{{"changed", c.Changed}, {"added", c.Added}, {"removed (in the baseline, no longer in the suite)", c.Removed}} {
			if len(l.ids) > 0 {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: %s", l.what, listIDs(l.ids, maxListedIDs)))
			}
		}
	}
	n := c.Compared
	base := bs.score[:n]
	m, err := stats.MeasureDrop(base, cm.cand, ro)
	if err != nil {
		return nil, err
	}
	c.Base, c.Cand = rubric.Round9(m.BaseMean), rubric.Round9(m.CandMean)
	c.Delta, c.RelDelta = rubric.Round9(m.Delta), rubric.Round9(m.RelDelta)
	c.CI, c.PValue, c.PValueWorse = m.CI, m.PValue, m.PValueWorse
	ev, err := measureEvidence(n, func(k int) (float64, float64, float64) { return base[k], bs.variance(k), cm.cand[k] }, bs.runs, cm.runs,
		bs.runBits, cm.candBits, cm.roundsOf, bs.passRate, runGroups(b, bs, cs)...)
	if err != nil {
		return nil, err
	}
	c.Evidence, c.EvidenceItems = ev, evidenceItems(ev, bs, cm, cs)
	c.BiggestDrops = drops.list()
	for d, name := range cs.dims {
		dimBase, dimSD, dimCand := bs.bd[d][:n], bs.bdSD[d], cm.dims[d]
		// A dimension is compared over the items it applies to on both sides: n/a is no 0.
		ks := applicable(dimBase, dimCand)
		if len(ks) == 0 {
			c.Dimensions = append(c.Dimensions, DimensionDelta{Name: name, NA: true})
			continue
		}
		pick := func(col []float64) []float64 {
			if len(ks) == n || col == nil {
				return col
			}
			out := make([]float64, len(ks))
			for j, k := range ks {
				out[j] = col[k]
			}
			return out
		}
		pb, pc, psd := pick(dimBase), pick(dimCand), pick(dimSD)
		dd := DimensionDelta{Name: name, Base: rubric.Round9(stats.Mean(pb)), Cand: rubric.Round9(stats.Mean(pc))}
		if len(ks) < n {
			dd.Items = len(ks) // said only when the dimension applies to fewer items than are compared
		}
		dd.Delta = rubric.Round9(dd.Cand - dd.Base)
		dd.CI = dimensionCI(pb, pc, ro)
		baseRuns, candRuns := bs.runs[:n], cm.runs
		if len(ks) < n {
			baseRuns, candRuns = make([]int32, len(ks)), make([]int32, len(ks))
			for j, k := range ks {
				baseRuns[j], candRuns[j] = bs.runs[k], cm.runs[k]
			}
		}
		dev, err := measureEvidence(len(ks), func(j int) (float64, float64, float64) { sd := at(psd, j); return pb[j], sd * sd, pc[j] }, baseRuns, candRuns, nil, nil, nil, nil)
		if err == nil {
			for t := range dev.Top {
				dev.Top[t].Index = ks[dev.Top[t].Index]
			}
			dd.Evidence, dd.EvidenceItems = &dev, evidenceItems(dev, bs, cm, cs)
		}
		c.Dimensions = append(c.Dimensions, dd)
	}
	tagNames := make([]string, 0, len(tags))
	for t := range tags {
		tagNames = append(tagNames, t)
	}
	sort.Strings(tagNames)
	for _, t := range tagNames {
		a := tags[t]
		dd := DimensionDelta{Name: t, Base: rubric.Round9(a.base / float64(a.n)), Cand: rubric.Round9(a.cand / float64(a.n)), Items: a.n}
		dd.Delta = rubric.Round9(dd.Cand - dd.Base)
		c.Tags = append(c.Tags, dd)
	}
	return c, nil
}

// measureEvidence fits the prior on the n compared items' baseline figures and measures
// each candidate figure against it, one item at a time; item(k) gives the baseline
// mean, the baseline's variance over its runs and the candidate mean, bits(k) (nil:
// none) the baseline's per-run scores when known, rounds(k) (nil: none) the item's
// re-runs apart from its full runs, for the replication test, candBits(k) (nil: none)
// the item's per-run scores in the candidate's full runs and their count, passRate (nil:
// none) the items' baseline pass rates, which say whether a re-run item flipped there
// (stats.Observation.Flipped), and groups the runs known by their means, for the
// run-level noise.
func measureEvidence(n int, item func(k int) (base, baseVar, cand float64), baseRuns, candRuns []int32,
	bits func(k int) (uint64, bool), candBits func(k int) (uint64, int, bool), rounds func(k int) (rubric.ItemRounds, bool),
	passRate []float64, groups ...stats.RunGroup) (stats.EvidenceResult, error) {
	var fit stats.PriorFit
	for k := range n {
		b, v, _ := item(k)
		fit.Add(clamp01(b), v, int(baseRuns[k]))
	}
	acc := stats.NewEvidenceAccumulator(fit.Prior(), EvidenceTop)
	acc.RunGroups(groups...)
	for k := range n {
		b, v, y := item(k)
		o := stats.Observation{Index: k, BaseMean: clamp01(b), BaseRuns: int(baseRuns[k]), CandMean: clamp01(y), CandRuns: int(candRuns[k]), BaseVar: v}
		if bits != nil {
			o.BaseBits, o.HasBits = bits(k)
		}
		if candBits != nil {
			o.CandBits, o.CandBitRuns, o.CandHasBits = candBits(k)
		}
		if rounds != nil {
			if ir, ok := rounds(k); ok && ir.FullRuns > 0 {
				o.FullMean, o.FullRuns, o.Rounds = clamp01(ir.Full), ir.FullRuns, ir.Rounds
				o.Flipped = k < len(passRate) && stats.Unstable(passRate[k])
			}
		}
		acc.Add(o)
	}
	return acc.Result()
}

func clamp01(x float64) float64 { return min(1, max(0, x)) }

// addBits records compared item k's per-run scores in the candidate's full runs, or
// gives them up for every item once one has none, or over other runs.
func (cm *compared) addBits(k int, ci *Candidate) {
	switch {
	case k == 0 && ci.HasBits:
		cm.bitRuns = ci.BitRuns
	case !ci.HasBits || ci.BitRuns != cm.bitRuns:
		cm.bitRuns, cm.bits = 0, nil
	}
	if cm.bitRuns > 0 {
		cm.bits = append(cm.bits, ci.Bits)
	}
}

// candBits is compared item k's per-run scores in the candidate's full runs, when
// every item has them.
func (cm compared) candBits(k int) (uint64, int, bool) {
	if cm.bitRuns == 0 || k >= len(cm.bits) {
		return 0, 0, false
	}
	return cm.bits[k], cm.bitRuns, true
}

// roundsOf is item k's re-runs apart from its full runs, when a re-run held it.
func (cm compared) roundsOf(k int) (rubric.ItemRounds, bool) {
	ir, ok := cm.rounds[k]
	return ir, ok
}

// evidenceItems names the measurement's strongest items that fell below prediction.
func evidenceItems(ev stats.EvidenceResult, bs *baseSide, cm compared, cs candSide) []EvidenceItem {
	var out []EvidenceItem
	for _, t := range ev.Top {
		if t.Weight <= 0 {
			continue
		}
		k := t.Index
		id, line := cs.at(int(cm.idx[k]))
		out = append(out, EvidenceItem{ID: id, Line: line, BaseScore: bs.score[k], BaseRuns: int(bs.runs[k]),
			BasePassRate: bs.passRate[k], Predicted: rubric.Round9(t.Predicted), CandScore: cm.cand[k], CandRuns: int(cm.runs[k]),
			Z: math.Round(t.Z*100) / 100})
	}
	return out
}

// topDrops keeps the items whose score fell most, largest fall first (ties in
// candidate order), at most MaxBiggestDrops: a bounded list however many items fell.
type topDrops struct {
	n    int
	kept *topk.Keeper[droppedItem]
}

// droppedItem is an item's change and its place in the candidate's order.
type droppedItem struct {
	ch   ItemChange
	pos  int
	fall float64
}

func fellMore(a, b droppedItem) bool {
	if a.fall != b.fall {
		return a.fall > b.fall
	}
	return a.pos < b.pos
}

func (t *topDrops) add(ch ItemChange) {
	if t.kept == nil {
		t.kept = topk.New(MaxBiggestDrops, fellMore)
	}
	t.kept.Offer(droppedItem{ch: ch, pos: t.n, fall: ch.BaseScore - ch.CandScore})
	t.n++
}

func (t topDrops) list() []ItemChange {
	if t.kept == nil {
		return nil
	}
	best := t.kept.Best()
	out := make([]ItemChange, len(best))
	for i, d := range best {
		out[i] = d.ch
	}
	return out
}

func hashNote(a, b string) string {
	if a == b {
		return ""
	}
	return fmt.Sprintf(", rubric sha256 %.12s → %.12s", a, b)
}

// noOutputsError refuses to re-score a baseline that kept no recorded outputs.
func noOutputsError(file string, b *Baseline, sys *rubric.System) error {
	return &MismatchError{Msg: fmt.Sprintf(
		"baseline %s was scored under %s (rubric sha256 %.12s) and this config is %s (rubric sha256 %.12s); the baseline carries no recorded outputs to re-score: refresh it with `evalgate baseline --results ... --out %s`",
		file, b.ScoringSystem, b.RubricHash, sys.Version, sys.Hash(), file)}
}

// dimensionCI is the 95% interval of a dimension's mean paired difference.
func dimensionCI(base, cand []float64, ro stats.ResampleOptions) *stats.Interval {
	m, err := stats.MeasureDrop(base, cand, ro)
	if err != nil {
		return nil
	}
	iv := m.CI
	iv.Lo, iv.Hi = rubric.Round9(iv.Lo), rubric.Round9(iv.Hi)
	return &iv
}

// applicable lists the compared items (positions k) a dimension applies to on both
// sides: neither holds NaN, which stands for n/a.
func applicable(base, cand []float64) []int {
	ks := make([]int, 0, len(cand))
	for k := range cand {
		if !math.IsNaN(base[k]) && !math.IsNaN(cand[k]) {
			ks = append(ks, k)
		}
	}
	return ks
}

// maxListedIDs bounds the ids a note lists; the JSON report keeps them all.
const maxListedIDs = 20

// listIDs joins ids for a note, the first n of them and how many more.
func listIDs(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:n], ", "), len(ids)-n)
}
