// Package baseline is the stable distribution: the scores a release achieves on the
// regression set over N runs, saved as JSON Lines under baselines/ (SUITE.jsonl: a
// header line, then one line per item), and Compare, which sets a candidate run against
// it.
package baseline

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
)

// SchemaVersion is the version of the baseline file format this evalgate writes.
//
// Version 2 is JSON Lines, so a baseline of a million items is read and written as a
// stream (Reader, Save): the first line is the header (every field of Baseline except
// Items and Outputs, plus "items": the item count), then one line per Item in suite
// order, then, when kept inline, one line per recorded output {"run": i, "record": {…}}
// (the same lines as an outputs file kept beside it). Two baselines diff item by item.
//
// Version 1 (one indented JSON object, no per-run pass bits or per-item spread) is
// still read: Compare re-scores its recorded outputs into version 2 figures, or, when it
// has none, compares with what it has and says how to refresh it.
const SchemaVersion = 2

// Baseline is the stable distribution of one suite.
type Baseline struct {
	SchemaVersion int    `json:"schema_version"`
	Suite         string `json:"suite"`
	ScoringSystem string `json:"scoringSystem"`
	GradingSystem string `json:"gradingSystem"`
	SuiteHash     string `json:"suite_hash"`
	RubricHash    string `json:"rubric_hash"`
	Source        Source `json:"source"`
	CreatedAt     string `json:"created_at"`
	// Runs holds each run's aggregates (seed 001 §4.4); Mean and Std are the mean and
	// sample std of the runs' mean scores.
	Runs       []RunAggregate     `json:"runs"`
	Mean       float64            `json:"mean"`
	Std        float64            `json:"std"`
	PassRate   float64            `json:"pass_rate"`
	Grade      string             `json:"grade,omitempty"`
	Metrics    map[string]float64 `json:"metrics"`
	Dimensions map[string]float64 `json:"dimensions"` // mean normalized value per dimension
	Items      []Item             `json:"items"`
	// Outputs are the recorded results the baseline was made from, one list per run,
	// so it can be re-scored under a new scoring system. Empty when kept beside the
	// file (OutputsFile) because they are large.
	Outputs     [][]map[string]any `json:"outputs,omitempty"`
	OutputsFile string             `json:"outputs_file,omitempty"`

	// Judges are the fingerprints of the judges that scored the baseline, so a
	// comparison made with another judge is caught; absent in baselines made before
	// they were recorded. JudgeReliability is the judges' self-agreement measured when
	// the baseline was made (absent when not measured, e.g. a judge in replay mode).
	// PanelMoments are each z-normalizing panel's per-reviewer and pooled moments, by
	// dimension. JudgeCalibration is the judges' agreement with the config's human
	// labels (calibration:) when the baseline was made. All are optional: older
	// baselines read as before.
	Judges           []reliability.Fingerprint    `json:"judges,omitempty"`
	JudgeReliability *reliability.Measurement     `json:"judge_reliability,omitempty"`
	JudgeCalibration *reliability.Calibration     `json:"judge_calibration,omitempty"`
	PanelMoments     map[string]reliability.Panel `json:"panel_moments,omitempty"`

	// JudgeCostPricesHits is set in every baseline whose judge_cost_usd prices the
	// judge cache's hits as if paid (rubric.JudgeCost.JudgingUSD). An older baseline's
	// is only what its judge calls were paid ($0 with a warm cache): Compare leaves it
	// out, so a gate on its change is skipped with a notice, never decided on it.
	JudgeCostPricesHits bool `json:"judge_cost_prices_hits,omitempty"`

	// FormatV1 is set when the file was schema version 1: its items have no per-run
	// pass bits or spread.
	FormatV1 bool `json:"-"`
}

// Source names the release a baseline was made from.
type Source struct {
	Ref string `json:"ref,omitempty"`
	SHA string `json:"sha,omitempty"`
}

// RunAggregate is one run's figures.
type RunAggregate struct {
	File      string   `json:"file"`
	MeanScore float64  `json:"mean_score"`
	PassRate  float64  `json:"pass_rate"`
	P50Ms     *float64 `json:"latency_e2e_p50_ms,omitempty"`
	P95Ms     *float64 `json:"latency_e2e_p95_ms,omitempty"`
	// CostUSD is the run's cost in US dollars; absent in baselines made before
	// evalgate measured cost, or when a model had no price. The header's metrics hold
	// the mean over runs (cost_usd, judge_cost_usd, ...).
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// Item is one suite item's baseline: its mean over the runs and how much it varied.
type Item struct {
	ID   string   `json:"id"`
	Hash string   `json:"hash"`
	Tags []string `json:"tags,omitempty"`
	// Runs is the number of runs the item was scored in (0 in a version 1 file: read
	// len(Baseline.Runs)).
	Runs int `json:"runs,omitempty"`
	// Score is the mean of the per-run scores, ScoreStd their sample std (0 with one
	// run).
	Score    float64 `json:"score"`
	ScoreStd float64 `json:"score_std"`
	// PassRate is the fraction of runs the item passed in; PassBits says which, one
	// character per run in run order ("110": passed runs 1 and 2, failed run 3).
	PassRate float64 `json:"pass_rate"`
	PassBits string  `json:"pass_bits,omitempty"`
	// Breakdown is the mean normalized value per dimension, BreakdownStd its sample std
	// over runs.
	Breakdown    map[string]float64 `json:"breakdown"`
	BreakdownStd map[string]float64 `json:"breakdown_std,omitempty"`
	// Rounds, in a snapshot compared as the candidate (a simulation's), splits Score
	// into the full runs' mean and the item's re-runs, as a scored candidate's
	// (Candidate.Rounds); never stored.
	Rounds *rubric.ItemRounds `json:"-"`
}

// InlineOutputsLimit is the size of recorded outputs above which they are written
// beside the baseline as <name>.outputs.jsonl.gz instead of inline.
const InlineOutputsLimit = 1 << 20

// LoadItems reads a baseline file, version 2 or 1, whole but without its recorded
// outputs (a comparison of two snapshots never re-scores them). To read a large
// baseline item by item, or its outputs, use Open.
func LoadItems(path string) (*Baseline, error) { return load(path, false) }

func load(path string, outputs bool) (*Baseline, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b := r.Header()
	for {
		it, ok, err := r.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		b.Items = append(b.Items, it)
	}
	if !outputs {
		return b, nil
	}
	outs, err := r.Outputs()
	if err != nil {
		return nil, err
	}
	b.Outputs = outs
	return b, nil
}

// checkOutputsFile refuses an outputs_file that is not a plain name beside the
// baseline.
func checkOutputsFile(path string, b *Baseline) error {
	if b.OutputsFile != "" && (b.OutputsFile != filepath.Base(b.OutputsFile) || strings.HasPrefix(b.OutputsFile, ".")) {
		return eval.Errorf(path, 0, "", "outputs_file %q must name a file beside the baseline", b.OutputsFile)
	}
	return nil
}

// loadOutputsFile reads the recorded outputs a baseline keeps beside it.
func loadOutputsFile(path string, b *Baseline) error {
	if b.OutputsFile == "" {
		return nil
	}
	if err := checkOutputsFile(path, b); err != nil {
		return err
	}
	outs, err := readOutputs(filepath.Join(filepath.Dir(path), b.OutputsFile))
	if err != nil {
		return eval.Errorf(path, 0, "", "recorded outputs %s: %v", b.OutputsFile, err)
	}
	b.Outputs = outs
	return nil
}

func lineOf(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// Save writes the baseline in format version 2, atomically (temp file + rename), one
// line per item with stable key order, so two baselines diff item by item. Large
// recorded outputs go beside it.
func Save(path string, b *Baseline) error {
	outs := b.Outputs
	size := 0
	for _, run := range outs {
		for _, rec := range run {
			if o, ok := rec["output"].(string); ok {
				size += len(o)
			}
		}
	}
	b.OutputsFile = ""
	if size > InlineOutputsLimit {
		name := OutputsName(path)
		if err := writeOutputs(filepath.Join(filepath.Dir(path), name), outs); err != nil {
			return err
		}
		b.OutputsFile = name // the caller learns the file beside it
		outs = nil
	}
	b.SchemaVersion = SchemaVersion
	var buf bytes.Buffer
	if err := Encode(&buf, b, outs); err != nil {
		return err
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// WriteFileAtomic writes data the way safeio.WriteFile does: atomically (temp file +
// rename) over a regular file or a new path, through a device or FIFO, never over
// anything else; errors name path, not the temporary file.
func WriteFileAtomic(path string, data []byte) error { return safeio.WriteFile(path, data) }

// WriteFileAtomicFunc is WriteFileAtomic for content written as a stream by write.
func WriteFileAtomicFunc(path string, write func(w io.Writer) error) error {
	return safeio.WriteFileFunc(path, write)
}

// outputs beside the file: one JSON line per record, {"run": i, ...record}.
func writeOutputs(path string, outs [][]map[string]any) error {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.ModTime = zeroTime // reproducible bytes
	enc := json.NewEncoder(zw)
	for i, run := range outs {
		for _, rec := range run {
			line := map[string]any{"run": i, "record": rec}
			if err := enc.Encode(line); err != nil {
				return err
			}
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return WriteFileAtomic(path, buf.Bytes())
}

func readOutputs(path string) ([][]map[string]any, error) {
	var outs [][]map[string]any
	err := eachOutputRecord(path, func(run int, rec map[string]any) error {
		for len(outs) <= run {
			outs = append(outs, nil)
		}
		outs[run] = append(outs[run], rec)
		return nil
	})
	return outs, err
}

// eachOutputInFile calls fn with each record of the outputs file kept beside the
// baseline at base; errors reading the file name it.
func eachOutputInFile(base, path string, fn func(run int, rec map[string]any) error) error {
	var fnErr error
	err := eachOutputRecord(path, func(run int, rec map[string]any) error {
		fnErr = fn(run, rec)
		return fnErr
	})
	if err != nil && fnErr == nil {
		return eval.Errorf(base, 0, "", "recorded outputs %s: %v", filepath.Base(path), err)
	}
	return err
}

// eachOutputRecord streams the outputs file at path: one {"run": i, "record": {...}}
// per line, gzip-compressed.
func eachOutputRecord(path string, fn func(run int, rec map[string]any) error) error {
	f, err := safeio.Open(path, "recorded outputs")
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := safeio.Decompress(f, path, safeio.MaxDecompressedBytes)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(zr)
	for {
		var line struct {
			Run    int            `json:"run"`
			Record map[string]any `json:"record"`
		}
		if err := dec.Decode(&line); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if line.Run < 0 || line.Run > 1000 {
			return fmt.Errorf("run index %d out of range", line.Run)
		}
		if err := fn(line.Run, line.Record); err != nil {
			return err
		}
	}
}
