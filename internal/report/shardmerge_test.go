package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// shardReport is shard i/n of a 3-item suite run once, holding the items at places pos
// (ids "a", "b", "c" by place), with no dimensions (so each run state is one score and
// one flag per item).
func shardReport(sys *rubric.System, file string, i, n int, pos ...int) *ShardReport {
	p := &ShardReport{File: file, Suite: "s", ScoringSystem: "scoringSystem/1", GradingSystem: "gradingSystem/1",
		SuiteHash: "h", RubricHash: sys.Hash(), Shard: eval.Shard{Index: i, Count: n}}
	p.Metadata.EvalgateVersion, p.Metadata.ResultsFiles = "v1", []string{"run.jsonl"}
	st := &ShardState{Shard: p.Shard.String(), SuiteItems: 3, SuiteFile: "suite.jsonl"}
	run := rubric.RunState{File: "run.jsonl", ModelItem: -1}
	for _, at := range pos {
		id := string(rune('a' + at))
		if at < 0 || at > 2 {
			id = "x"
		}
		st.Items = append(st.Items, ShardItem{Pos: at, ID: id, Hash: "h" + id, Line: at + 1})
		run.Score, run.Flags = append(run.Score, 1), append(run.Flags, 0)
	}
	st.Runs = []rubric.RunState{run}
	p.ShardState = st
	return p
}

// The merge's refusals, each from a hand-made pair of shards of a 3-item suite: shard
// 1/2 holds places 0 and 2, shard 2/2 place 1.
func TestJoinShardsRefusesWhatIsNotOneRun(t *testing.T) {
	sys := &rubric.System{}
	pair := func() []*ShardReport {
		return []*ShardReport{shardReport(sys, "s1.json", 1, 2, 0, 2), shardReport(sys, "s2.json", 2, 2, 1)}
	}
	for _, tt := range []struct {
		name string
		edit func([]*ShardReport) []*ShardReport
		want string // "" : merges
	}{
		{"one run, every item once", func(p []*ShardReport) []*ShardReport { return p }, ""},
		{"in any order", func(p []*ShardReport) []*ShardReport { return []*ShardReport{p[1], p[0]} }, ""},
		{"another evalgate version", func(p []*ShardReport) []*ShardReport { p[1].Metadata.EvalgateVersion = "v2"; return p },
			`s2.json: evalgate_version is "v2"; s1.json has "v1": shards of one run share`},
		{"another scoring system", func(p []*ShardReport) []*ShardReport { p[1].ScoringSystem = "scoringSystem/2"; return p },
			`s2.json: scoringSystem is "scoringSystem/2"; s1.json has "scoringSystem/1"`},
		{"other results files", func(p []*ShardReport) []*ShardReport { p[1].Metadata.ResultsFiles = []string{"a", "b"}; return p },
			`s2.json: the list of results files is "a, b"; s1.json has "run.jsonl"`},
		{"another suite file's hash", func(p []*ShardReport) []*ShardReport { p[1].SuiteHash = "other"; return p },
			`s2.json: suite_hash is "other"`},
		{"a suite from the results: its hash is the merge's own", func(p []*ShardReport) []*ShardReport {
			p[0].ShardState.SuiteFromResults, p[1].ShardState.SuiteFromResults, p[1].SuiteHash = true, true, "other"
			return p
		}, ""},
		{"another split", func(p []*ShardReport) []*ShardReport {
			return []*ShardReport{p[0], shardReport(sys, "s3.json", 2, 3, 1)}
		}, "s3.json: is shard 2/3; s1.json is shard 1/2: give the shards of one split"},
		{"a shard twice", func(p []*ShardReport) []*ShardReport {
			return []*ShardReport{p[0], p[1], shardReport(sys, "again.json", 1, 2, 0, 2)}
		}, "again.json: overlap: shard 1/2 is given twice (s1.json and again.json)"},
		{"a shard missing", func(p []*ShardReport) []*ShardReport { return p[:1] },
			"s1.json: gap: shard 2/2 missing; give every shard's report"},
		{"scored with another rubric", func(p []*ShardReport) []*ShardReport {
			p[0].RubricHash, p[1].RubricHash = "old", "old"
			return p
		}, `s1.json: rubric_hash is "old"; the config's scoring system hashes to`},
		{"a place outside the suite", func(p []*ShardReport) []*ShardReport {
			return []*ShardReport{p[0], shardReport(sys, "s2.json", 2, 2, 5)}
		}, `s2.json: item "x": place 5 is outside the suite's 3 items`},
		{"an item in two shards", func(p []*ShardReport) []*ShardReport {
			return []*ShardReport{p[0], shardReport(sys, "s2.json", 2, 2, 1, 2)}
		}, `s2.json: item "c": overlap: the item is also in s1.json`},
		{"an item in no shard", func(p []*ShardReport) []*ShardReport {
			return []*ShardReport{p[0], shardReport(sys, "s2.json", 2, 2)}
		}, "s1.json: gap: 1 of the suite's 3 items are in no shard (item 2 first)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := JoinShards(sys, tt.edit(pair()))
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v; want one containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, it := range m.Items {
				ids = append(ids, it.ID)
			}
			if strings.Join(ids, ",") != "a,b,c" || m.Scored.Suite.Len() != 3 || len(m.Scored.Runs) != 1 {
				t.Errorf("items %v, suite %d items, %d runs; want a,b,c in suite order, 1 run", ids, m.Scored.Suite.Len(), len(m.Scored.Runs))
			}
		})
	}
}
