package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
)

// ShardReport is the part of a shard's JSON report that a merge reads: what must agree
// across the shards of one run, and the shard's state.
type ShardReport struct {
	// File is the report's path, named in every error about it.
	File          string `json:"-"`
	Suite         string `json:"suite"`
	ScoringSystem string `json:"scoringSystem"`
	GradingSystem string `json:"gradingSystem"`
	SuiteHash     string `json:"suite_hash"`
	RubricHash    string `json:"rubric_hash"`
	Metadata      struct {
		EvalgateVersion string   `json:"evalgate_version"`
		ResultsFiles    []string `json:"results_files"`
	} `json:"metadata"`
	ShardState *ShardState `json:"shard_state"`
	// Shard is ShardState.Shard parsed.
	Shard eval.Shard `json:"-"`
}

// maxShardReportBytes bounds a shard's report read (the action's report input may
// name files a pull request's jobs wrote); a variable for tests.
var maxShardReportBytes int64 = safeio.MaxFileBytes

// ReadShardReport reads the part of a shard's report a merge needs. A file that is not
// an evalgate JSON report, or a report without a shard's state, is an error naming it.
func ReadShardReport(path string) (*ShardReport, error) {
	f, err := safeio.Open(path, "report")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var p ShardReport
	lr := &io.LimitedReader{R: f, N: maxShardReportBytes + 1}
	if err := json.NewDecoder(bufio.NewReaderSize(lr, 1<<20)).Decode(&p); err != nil {
		if lr.N <= 0 {
			return nil, eval.Errorf(path, 0, "", "report larger than %d MiB, the limit for a shard's report", maxShardReportBytes>>20)
		}
		return nil, eval.Errorf(path, 0, "", "not an evalgate JSON report: %v", err)
	}
	p.File = path
	if p.ShardState == nil {
		return nil, eval.Errorf(path, 0, "", "is not a shard's report (no shard_state): make each shard's with `evalgate score --shard i/n --format json --out FILE`")
	}
	if p.Shard, err = eval.ParseShard(p.ShardState.Shard); err != nil {
		return nil, eval.Errorf(path, 0, "", "shard_state: %v", err)
	}
	return &p, nil
}

// Counter is told what a merge reads (progress.Meter does); its methods must accept a
// nil receiver of the caller's type.
type Counter interface {
	Step(label string)
	Add(n int)
}

type silent struct{}

func (silent) Step(string) {}
func (silent) Add(int)     {}

// Merged is shards' reports joined: the whole suite's scoring, every item in suite
// order, and the first shard's report (the metadata they share).
type Merged struct {
	Scored *rubric.Scored
	Items  []ShardItem
	First  *ShardReport
}

// MergeShards reads the shards' reports at paths and joins them (JoinShards); c, when
// not nil, is told what it reads.
func MergeShards(sys *rubric.System, paths []string, c Counter) (*Merged, error) {
	if c == nil {
		c = silent{}
	}
	var parts []*ShardReport
	for _, p := range paths {
		c.Step("merging: reading " + p)
		pt, err := ReadShardReport(p)
		if err != nil {
			return nil, err
		}
		parts = append(parts, pt)
		c.Add(len(pt.ShardState.Items))
	}
	return JoinShards(sys, parts)
}

// JoinShards joins shards' reports into the scoring of the whole suite, refusing what
// cannot be one run: other versions, suites or rubrics (sys is the config's scoring
// system, which must be the one the shards were scored with), a shard given twice, a
// shard or an item missing, an item in two shards.
func JoinShards(sys *rubric.System, parts []*ShardReport) (*Merged, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no shard reports to merge")
	}
	first, byShard, err := sameRun(parts)
	if err != nil {
		return nil, err
	}
	if h := sys.Hash(); h != first.RubricHash {
		return nil, eval.Errorf(first.File, 0, "", "rubric_hash is %q; the config's scoring system hashes to %q: merge with the config the shards were scored with", first.RubricHash, h)
	}
	var missing []string
	for i := 1; i <= first.Shard.Count; i++ {
		if byShard[i] == nil {
			missing = append(missing, eval.Shard{Index: i, Count: first.Shard.Count}.String())
		}
	}
	if len(missing) > 0 {
		return nil, eval.Errorf(first.File, 0, "", "gap: shard %s missing; give every shard's report", strings.Join(missing, ", "))
	}
	items, sps, err := placeItems(first, byShard)
	if err != nil {
		return nil, err
	}
	fs := first.ShardState
	suite := eval.NewIndex(fs.SuiteFile)
	suite.Name = first.Suite
	for pos, it := range items {
		if err := suite.Add(&eval.Item{ID: it.ID, Hash: it.Hash, Line: it.Line, Tags: it.Tags, Pos: pos}); err != nil {
			return nil, err
		}
	}
	if fs.SuiteFromResults {
		suite.Finish()
	} else {
		suite.Hash = first.SuiteHash
	}
	sc, err := rubric.Merge(sys, suite, sps)
	if err != nil {
		return nil, eval.Errorf(first.File, 0, "", "%v", err)
	}
	return &Merged{Scored: sc, Items: items, First: first}, nil
}

// sameRun checks that the reports are shards of one run and one split, each given once,
// and indexes them by shard number.
func sameRun(parts []*ShardReport) (*ShardReport, map[int]*ShardReport, error) {
	first := parts[0]
	same := func(what, a, b string, p *ShardReport) error {
		if a == b {
			return nil
		}
		return eval.Errorf(p.File, 0, "", "%s is %q; %s has %q: shards of one run share the evalgate version, the config and the results files",
			what, b, first.File, a)
	}
	byShard := map[int]*ShardReport{}
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
				return nil, nil, err
			}
		}
		if !fs.SuiteFromResults {
			if err := same("suite_hash", first.SuiteHash, p.SuiteHash, p); err != nil {
				return nil, nil, err
			}
		}
		if p.Shard.Count != first.Shard.Count {
			return nil, nil, eval.Errorf(p.File, 0, "", "is shard %s; %s is shard %s: give the shards of one split", p.Shard, first.File, first.Shard)
		}
		if prev, dup := byShard[p.Shard.Index]; dup {
			return nil, nil, eval.Errorf(p.File, 0, "", "overlap: shard %s is given twice (%s and %s)", p.Shard, prev.File, p.File)
		}
		byShard[p.Shard.Index] = p
	}
	return first, byShard, nil
}

// placeItems puts every shard's items at their place in the suite, refusing a place
// outside it, an item in two shards and an item in none.
func placeItems(first *ShardReport, byShard map[int]*ShardReport) ([]ShardItem, []rubric.ShardPart, error) {
	n := first.ShardState.SuiteItems
	items := make([]ShardItem, n)
	from := make([]string, n)
	var sps []rubric.ShardPart
	for i := 1; i <= first.Shard.Count; i++ {
		p := byShard[i]
		sp := rubric.ShardPart{Runs: p.ShardState.Runs, Judge: p.ShardState.JudgeCost}
		for _, it := range p.ShardState.Items {
			if it.Pos < 0 || it.Pos >= n {
				return nil, nil, eval.Errorf(p.File, 0, it.ID, "place %d is outside the suite's %d items", it.Pos, n)
			}
			if from[it.Pos] != "" {
				return nil, nil, eval.Errorf(p.File, 0, it.ID, "overlap: the item is also in %s", from[it.Pos])
			}
			from[it.Pos], items[it.Pos] = p.File, it
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
		return nil, nil, eval.Errorf(first.File, 0, "", "gap: %d of the suite's %d items are in no shard (item %d first); give every shard's report, scored with the same results files", len(gaps), n, gaps[0])
	}
	return items, sps, nil
}
