package report

import "github.com/evalgate/evalgate/internal/rubric"

// ShardState is what a shard's report carries so that `evalgate merge` can join the
// shards into the report of the whole suite: every item's place in the suite and what
// its shown sample said (ItemStream.at), and each run's compact per-item numbers. A merged report
// carries the whole suite's, so `check --report` can gate on it again.
type ShardState struct {
	Shard            string            `json:"shard"`       // "i/n"; a merged report: "1/1"
	SuiteItems       int               `json:"suite_items"` // items in the whole suite
	SuiteFile        string            `json:"suite_file"`
	SuiteFromResults bool              `json:"suite_from_results"` // the suite is the first results file's records
	Items            []ShardItem       `json:"items"`
	Runs             []rubric.RunState `json:"runs"`
	// JudgeCost is what the shard's judges' calls cost (a merged report: all shards');
	// absent without a judge, and in reports made before shards carried it.
	JudgeCost *rubric.JudgeCost `json:"judge_cost,omitempty"`
}

// ShardItem is one item of a shard.
type ShardItem struct {
	Pos   int      `json:"pos"` // place in the whole suite, 0-based
	ID    string   `json:"id"`
	Hash  string   `json:"hash"`
	Line  int      `json:"line"`
	Tags  []string `json:"tags,omitempty"`
	Parts []byte   `json:"parts"` // what the item's shown sample said (ItemStream.Capture's bytes)
}

// Captured is item i's captured parts, read back from the stream.
func (s *ItemStream) Captured(i int) ([]byte, error) { return s.readRaw(i) }

// NewShardState is what a shard's report carries for merge: every scored item's place
// and captured parts (read back from stream), every run's numbers. shard is "i/n";
// suiteItems is the whole suite's size when the suite is a file, 0 when it is the first
// results file's records (fromResults).
func NewShardState(sc *rubric.Scored, stream *ItemStream, shard string, fromResults bool, suiteItems int) (*ShardState, error) {
	st := &ShardState{Shard: shard, SuiteFile: sc.Suite.File, SuiteFromResults: fromResults,
		Runs: sc.State(), JudgeCost: sc.JudgeCost, SuiteItems: suiteItems}
	for i, it := range sc.Suite.All() {
		parts, err := stream.Captured(i)
		if err != nil {
			return nil, err
		}
		st.Items = append(st.Items, ShardItem{Pos: it.Pos, ID: it.ID, Hash: it.Hash, Line: it.Line, Tags: it.Tags, Parts: parts})
	}
	if st.SuiteItems == 0 { // the suite came from the results: every record of the first file
		st.SuiteItems = sc.SuiteRecords
	}
	return st, nil
}
