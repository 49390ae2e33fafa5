package report

import (
	"bytes"
	"encoding/json"

	"github.com/evalgate/evalgate/internal/jsonenc"
)

// Item is one suite item in the report, as the renderers read it. The JSON report
// writes it (itemWriter) with seed 000's keys first (item, prompt, expected, got, score,
// breakdown, weighted), then raw values, pass, and seed 001's per-sample fields where
// the rubric uses them.
type Item struct {
	ID        string
	Line      int
	Tags      []string
	Prompt    string
	Expected  any
	Got       string
	Score     float64
	Breakdown []KV // dimension → normalized value, in rubric order
	// NA is per dimension, in Breakdown's order: n/a in every run the item was scored
	// in, so its 0 in Breakdown and Weighted is no value, not a zero score.
	NA             []bool
	Weighted       []KV // dimension → weight × normalized value
	Raw            []KV // dimension → raw value (nil: null)
	Labels         map[string]string
	Pass           bool
	PassRuns       int
	Runs           int
	CappedBy       string
	Why            string // why the item failed
	Missing        bool
	MissingRuns    int
	Pending        bool
	EvaluatorError string
	Notes          map[string]string // dimension → why
	Sample         []KV              // seed 001 per-sample fields (accuracy_score, latency_e2e_ms, ...)
	// pre, when set, holds the parts that came from the output as JSON already
	// rendered (a streamed report): prompt, expected, got, the result's sample fields
	// (after Sample) and notes.
	pre *detailParts
}

// KV is one key and value of an ordered JSON object.
type KV struct {
	Key   string
	Value any
}

// appendValue appends v's JSON as marshal writes it, without reflection for the
// types a report item holds.
func appendValue(b []byte, v any) ([]byte, error) {
	if out, ok := jsonenc.Append(b, v, false); ok {
		return out, nil
	}
	vb, err := marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, vb...), nil
}

// marshal encodes without HTML escaping, so model outputs read as written.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
