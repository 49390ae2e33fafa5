// Package baseline is the stable distribution: the scores a release achieves on the
// regression set over N runs, saved as JSON under baselines/, and Compare, which sets a
// candidate run against it.
package baseline

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/safeio"
)

// SchemaVersion is the version of the baseline file format.
const SchemaVersion = 1

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
}

// Item is one suite item's baseline.
type Item struct {
	ID        string             `json:"id"`
	Hash      string             `json:"hash"`
	Tags      []string           `json:"tags,omitempty"`
	Score     float64            `json:"score"`
	PassRate  float64            `json:"pass_rate"`
	Breakdown map[string]float64 `json:"breakdown"`
}

// InlineOutputsLimit is the size of recorded outputs above which they are written
// beside the baseline as <name>.outputs.jsonl.gz instead of inline.
const InlineOutputsLimit = 1 << 20

// Load reads a baseline file (and its compressed outputs, if kept beside it).
func Load(path string) (*Baseline, error) {
	data, err := safeio.ReadFile(path, "baseline", safeio.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if err := safeio.CheckJSONDepth(path, data, 1); err != nil {
		return nil, err
	}
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, eval.Errorf(path, lineOf(data, dec.InputOffset()), "", "not a baseline file: %v", err)
	}
	if b.SchemaVersion != SchemaVersion {
		return nil, eval.Errorf(path, 0, "", "baseline schema_version %d; this evalgate reads %d: refresh it with `evalgate baseline`", b.SchemaVersion, SchemaVersion)
	}
	if b.OutputsFile != "" {
		if b.OutputsFile != filepath.Base(b.OutputsFile) || strings.HasPrefix(b.OutputsFile, ".") {
			return nil, eval.Errorf(path, 0, "", "outputs_file %q must name a file beside the baseline", b.OutputsFile)
		}
		outs, err := readOutputs(filepath.Join(filepath.Dir(path), b.OutputsFile))
		if err != nil {
			return nil, eval.Errorf(path, 0, "", "recorded outputs %s: %v", b.OutputsFile, err)
		}
		b.Outputs = outs
	}
	return &b, nil
}

func lineOf(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

func unwrap(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Save writes the baseline atomically (temp file + rename) with stable key order and
// indentation, so two baselines diff line by line. Large recorded outputs go beside it.
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
		name := strings.TrimSuffix(filepath.Base(path), ".json") + ".outputs.jsonl.gz"
		if err := writeOutputs(filepath.Join(filepath.Dir(path), name), outs); err != nil {
			return err
		}
		b.OutputsFile = name // the caller learns the file beside it
	}
	cp := *b
	if cp.OutputsFile != "" {
		cp.Outputs = nil
	}
	data, err := json.MarshalIndent(&cp, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(data, '\n'))
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
	f, err := safeio.Open(path, "recorded outputs")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := safeio.Decompress(f, path, safeio.MaxDecompressedBytes)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(zr)
	var outs [][]map[string]any
	for {
		var line struct {
			Run    int            `json:"run"`
			Record map[string]any `json:"record"`
		}
		if err := dec.Decode(&line); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if line.Run < 0 || line.Run > 1000 {
			return nil, fmt.Errorf("run index %d out of range", line.Run)
		}
		for len(outs) <= line.Run {
			outs = append(outs, nil)
		}
		outs[line.Run] = append(outs[line.Run], line.Record)
	}
	return outs, nil
}
