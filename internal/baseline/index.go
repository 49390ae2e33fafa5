package baseline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// IndexFile is the rollup of every suite's baseline in a directory (seed 004's
// index.json): both version strings, mean and grade per suite.
const IndexFile = "index.json"

// IndexSchemaVersion is the version of the index format (independent of the baseline
// format's).
const IndexSchemaVersion = 1

// Index is the content of baselines/index.json.
type Index struct {
	SchemaVersion int          `json:"schema_version"`
	Suites        []IndexEntry `json:"suites"`
}

// IndexEntry is one suite in the index.
type IndexEntry struct {
	Suite         string  `json:"suite"`
	File          string  `json:"file"`
	ScoringSystem string  `json:"scoringSystem"`
	GradingSystem string  `json:"gradingSystem"`
	Mean          float64 `json:"mean"`
	Std           float64 `json:"std"`
	Grade         string  `json:"grade,omitempty"`
	Runs          int     `json:"runs"`
	CreatedAt     string  `json:"created_at"`
	SourceSHA     string  `json:"source_sha,omitempty"`
}

// UpdateIndex rewrites dir/index.json from the header of every baseline file in dir.
// A baseline is known by its header, not its name: reports, results, history and
// outputs files beside the baselines are left out.
func UpdateIndex(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	idx := Index{SchemaVersion: IndexSchemaVersion, Suites: []IndexEntry{}}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || name == IndexFile || strings.HasPrefix(name, ".") {
			continue
		}
		if ok, err := IsBaselineFile(filepath.Join(dir, name)); err != nil {
			return err
		} else if !ok {
			continue
		}
		r, err := Open(filepath.Join(dir, name)) // the header is enough: a baseline may hold a million items
		if err != nil {
			return err
		}
		b := r.Header()
		r.Close()
		idx.Suites = append(idx.Suites, IndexEntry{Suite: b.Suite, File: name, ScoringSystem: b.ScoringSystem,
			GradingSystem: b.GradingSystem, Mean: b.Mean, Std: b.Std, Grade: b.Grade, Runs: len(b.Runs),
			CreatedAt: b.CreatedAt, SourceSHA: b.Source.SHA})
	}
	sort.Slice(idx.Suites, func(i, j int) bool { return idx.Suites[i].Suite < idx.Suites[j].Suite })
	data, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, IndexFile), append(data, '\n'))
}
