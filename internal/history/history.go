// Package history is the score's history: one compact record per baseline refresh,
// appended to baselines/<suite>.history.jsonl. The file is append-only (git merges it
// with merge=union), idempotent per commit, and marks where the scoring system changed,
// because scores on either side of such a change are not comparable.
package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/safeio"
	"github.com/evalgate/evalgate/internal/stats"
)

// MaxFileBytes bounds how much of a history file is read (about 100,000 records).
const MaxFileBytes = 64 << 20

// maxLineBytes bounds one record.
const maxLineBytes = 1 << 20

// Record is one baseline refresh.
type Record struct {
	// Release is the ref the baseline was made from (a tag such as v1.4.0), or empty.
	Release string `json:"release"`
	// Date is when the baseline was made, RFC 3339 in UTC.
	Date string `json:"date"`
	// Commit is the source commit; a second record for the same commit is not appended.
	Commit string `json:"commit"`
	// Mean and Std are the baseline's score over its runs (sample std), on the 0–1 scale.
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
	Runs int     `json:"runs"`
	// PassRate is the fraction of items passing, in [0, 1].
	PassRate float64 `json:"pass_rate"`
	// Dimensions is the mean normalized value per dimension.
	Dimensions    map[string]float64 `json:"dimensions"`
	ScoringSystem string             `json:"scoringSystem"`
	GradingSystem string             `json:"gradingSystem"`
	RubricHash    string             `json:"rubric_hash"`
	// CostUSD is the system under test's cost per run (the mean over the baseline's
	// runs) and JudgeCostUSD its judging's cost (judge_cost_usd: cache hits priced as
	// if paid), in US dollars; absent in records made before evalgate measured cost,
	// or when a model had no price.
	CostUSD      *float64 `json:"cost_usd,omitempty"`
	JudgeCostUSD *float64 `json:"judge_cost_usd,omitempty"`
	// ScoringChanged marks the first record after a change of scoring system (version or
	// rubric hash): its score is not comparable with the records before it.
	ScoringChanged bool `json:"scoring_changed,omitempty"`
}

// PathFor is the history file kept beside a baseline file: baselines/<suite>.json
// keeps its history in baselines/<suite>.history.jsonl.
func PathFor(baselinePath string) string {
	return strings.TrimSuffix(baselinePath, filepath.Ext(baselinePath)) + ".history.jsonl"
}

var (
	scoringVersion = regexp.MustCompile(`^scoringSystem/\d+\.\d+\.\d+$`)
	gradingVersion = regexp.MustCompile(`^gradingSystem/\d+\.\d+\.\d+$`)
)

// Load reads and validates a history file. A file that does not exist is an empty
// history. Every problem is an *eval.InputError naming the line.
func Load(path string) ([]Record, error) { return LoadAs(path, path) }

// LoadAs is Load with errors naming the file as name (a copy's repository path).
func LoadAs(path, name string) ([]Record, error) {
	f, err := safeio.OpenIfExists(path, "history")
	if f == nil || err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(name, f)
}

// Read parses history records from r; name labels errors.
func Read(name string, r io.Reader) ([]Record, error) {
	lr := &io.LimitedReader{R: r, N: MaxFileBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	var out []Record
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if err := safeio.CheckJSONDepth(name, text, line); err != nil {
			return nil, err
		}
		var rec Record
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return nil, eval.Errorf(name, line, "", "not a history record: %v", err)
		}
		if dec.More() {
			return nil, eval.Errorf(name, line, "", "text after the record; want one JSON object per line")
		}
		if err := rec.validate(); err != nil {
			return nil, eval.Errorf(name, line, "", "%v", err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, eval.Errorf(name, line+1, "", "record longer than %d bytes", maxLineBytes)
		}
		return nil, eval.Errorf(name, line, "", "cannot read history: %v", err)
	}
	if lr.N <= 0 {
		return nil, eval.Errorf(name, 0, "", "history larger than %d MiB", MaxFileBytes>>20)
	}
	return out, nil
}

func (r *Record) validate() error {
	if _, err := time.Parse(time.RFC3339, r.Date); err != nil {
		return fmt.Errorf("date %q; want RFC 3339 (2026-01-02T15:04:05Z)", r.Date)
	}
	if !scoringVersion.MatchString(r.ScoringSystem) {
		return fmt.Errorf("scoringSystem %q; want scoringSystem/X.Y.Z", r.ScoringSystem)
	}
	if !gradingVersion.MatchString(r.GradingSystem) {
		return fmt.Errorf("gradingSystem %q; want gradingSystem/X.Y.Z", r.GradingSystem)
	}
	if !unit(r.Mean) || !unit(r.PassRate) || !unit(r.Std) {
		return fmt.Errorf("mean %v, std %v, pass_rate %v; want numbers in [0, 1]", r.Mean, r.Std, r.PassRate)
	}
	if r.Runs < 1 {
		return fmt.Errorf("runs %d; want at least 1", r.Runs)
	}
	for _, c := range []*float64{r.CostUSD, r.JudgeCostUSD} {
		if c != nil && !(*c >= 0 && *c <= 1e12) {
			return fmt.Errorf("cost %v; want US dollars, 0 or more", *c)
		}
	}
	for k, v := range r.Dimensions {
		if !unit(v) {
			return fmt.Errorf("dimension %q mean %v; want a number in [0, 1]", k, v)
		}
	}
	return nil
}

func unit(x float64) bool { return !math.IsNaN(x) && x >= 0 && x <= 1 }

// Append adds rec to the history at path unless a record for the same commit is
// already there (refreshing twice from one commit records it once). It sets
// rec.ScoringChanged against the last record, writes one line with O_APPEND (the file
// is never rewritten), and makes sure the directory's .gitattributes merges history
// files by union. It reports whether a record was written.
func Append(path string, rec Record) (bool, error) {
	if err := rec.validate(); err != nil {
		return false, fmt.Errorf("history record: %w", err)
	}
	prev, err := Load(path)
	if err != nil {
		return false, err
	}
	for _, p := range prev {
		if rec.Commit != "" && p.Commit == rec.Commit {
			return false, nil
		}
	}
	if n := len(prev); n > 0 {
		last := prev[n-1]
		rec.ScoringChanged = last.ScoringSystem != rec.ScoringSystem || (last.RubricHash != "" && rec.RubricHash != "" && last.RubricHash != rec.RubricHash)
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return false, err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Close(); err != nil {
		return false, err
	}
	return true, EnsureUnionMerge(filepath.Dir(path))
}

// GitAttributesLine is what a baselines directory's .gitattributes holds so that two
// branches that both appended to a history file merge without a conflict.
const GitAttributesLine = "*.history.jsonl merge=union"

// EnsureUnionMerge adds GitAttributesLine to dir/.gitattributes when it is absent.
func EnsureUnionMerge(dir string) error {
	path := filepath.Join(dir, ".gitattributes")
	var data []byte
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		if data, err = safeio.ReadFile(path, ".gitattributes", safeio.MaxSmallFileBytes); err != nil {
			return err
		}
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == GitAttributesLine {
			return nil
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	data = append(data, GitAttributesLine+"\n"...)
	return os.WriteFile(path, data, 0o644)
}

// RunGroups are the records' runs as groups for the run-level noise
// (stats.MeasureRunNoise): each release's std of run means over its runs.
func RunGroups(recs []Record) []stats.RunGroup {
	var out []stats.RunGroup
	for _, r := range recs {
		if r.Runs >= 2 {
			out = append(out, stats.RunGroup{Std: r.Std, Runs: r.Runs, Source: r.Commit})
		}
	}
	return out
}
