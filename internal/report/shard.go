package report

import "github.com/evalgate/evalgate/internal/rubric"

// ShardState is what a shard's report carries so that `evalgate merge` can join the
// shards into the report of the whole suite: every item's place in the suite and what
// its first sample said, and each run's compact per-item numbers. A merged report
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
	Parts []byte   `json:"parts"` // what the item's first sample said (ItemStream.Capture's bytes)
}

// Captured is item i's captured parts, read back from the stream.
func (s *ItemStream) Captured(i int) ([]byte, error) { return s.readRaw(i) }
