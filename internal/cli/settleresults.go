package cli

import (
	"slices"

	"github.com/evalgate/evalgate/internal/config"
)

// frozenResults keeps a settle's results to the files its patterns matched before the
// first round. Every look expands the patterns again, and where the settle folder
// lies where a pattern reads (`--results 'runs/*.jsonl' --settle-dir runs`) the
// rounds' rerunN files matched too: each counted as a full run of the pull request
// whose other items were missing (a 5-pt drop read as 38 pts). Once a look finds the
// patterns matching other files than at the start, the looks read the files of the
// start, named one by one, and so do the report's commands (which then paste and read
// the same runs); otherwise the patterns stay as given.
type frozenResults struct {
	cfg   *config.Config
	start []string // the files the patterns matched at the start
}

func freezeResults(results []string, cfg *config.Config) (*frozenResults, error) {
	start, err := resultsPaths(results, cfg)
	if err != nil {
		return nil, err
	}
	return &frozenResults{cfg: cfg, start: start}, nil
}

// of is results as a look is to read them: as given while they match the files of the
// start, else those files.
func (f *frozenResults) of(results []string) []string {
	now, err := resultsPaths(results, f.cfg)
	if err == nil && slices.Equal(now, f.start) {
		return results
	}
	return slices.Clone(f.start)
}
