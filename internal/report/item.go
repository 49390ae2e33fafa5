package report

import (
	"bytes"
	"encoding/json"

	"github.com/evalgate/evalgate/internal/jsonenc"
)

// Item is one suite item in the report. It serializes seed 000's keys first (item,
// prompt, expected, got, score, breakdown, weighted), then raw values, pass, and seed
// 001's per-sample fields where the rubric uses them.
type Item struct {
	ID             string
	Line           int
	Tags           []string
	Prompt         string
	Expected       any
	Got            string
	Score          float64
	Breakdown      []KV // dimension → normalized value, in rubric order
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

// MarshalJSON writes the item with a stable key order.
func (it Item) MarshalJSON() ([]byte, error) { return it.appendJSON(nil) }

// appendJSON appends the item's JSON to b.
func (it Item) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	first := true
	put := func(k string, v any) error {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = jsonenc.AppendString(b, k, true)
		b = append(b, ':')
		var err error
		b, err = appendValue(b, v)
		return err
	}
	var prompt, expected, got any = it.Prompt, it.Expected, it.Got
	if it.pre != nil {
		prompt, expected, got = it.pre.prompt, it.pre.expected, it.pre.got
	}
	fields := []KV{
		{"item", it.ID}, {"prompt", prompt}, {"expected", expected}, {"got", got},
		{"score", it.Score}, {"breakdown", ordered(it.Breakdown)}, {"weighted", ordered(it.Weighted)},
		{"raw", ordered(it.Raw)}, {"pass", it.Pass},
	}
	if it.Runs > 1 {
		fields = append(fields, KV{"pass_runs", it.PassRuns}, KV{"runs", it.Runs})
	}
	if it.CappedBy != "" {
		fields = append(fields, KV{"capped_by", it.CappedBy})
	}
	if it.Missing || it.MissingRuns > 0 {
		fields = append(fields, KV{"missing", it.Missing}, KV{"missing_runs", it.MissingRuns})
	}
	if it.Pending {
		fields = append(fields, KV{"pending", true})
	}
	if len(it.Labels) > 0 {
		fields = append(fields, KV{"labels", it.Labels})
	}
	if it.EvaluatorError != "" {
		fields = append(fields, KV{"evaluator_error", it.EvaluatorError})
	}
	fields = append(fields, it.Sample...)
	if it.pre != nil {
		fields = append(fields, it.pre.sample...)
		if n := it.pre.notes; len(n) > 0 && string(n) != "null" {
			fields = append(fields, KV{"notes", n})
		}
	} else if len(it.Notes) > 0 {
		fields = append(fields, KV{"notes", it.Notes})
	}
	fields = append(fields, KV{"line", it.Line})
	if len(it.Tags) > 0 {
		fields = append(fields, KV{"tags", it.Tags})
	}
	for _, f := range fields {
		if err := put(f.Key, f.Value); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// ordered is a JSON object that keeps its key order.
type ordered []KV

func (o ordered) MarshalJSON() ([]byte, error) { return o.appendJSON(nil) }

func (o ordered) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i, kv := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonenc.AppendString(b, kv.Key, true)
		b = append(b, ':')
		var err error
		if b, err = appendValue(b, kv.Value); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendValue appends v's JSON as marshal writes it, without reflection for the
// types a report item holds.
func appendValue(b []byte, v any) ([]byte, error) {
	if o, ok := v.(ordered); ok {
		return o.appendJSON(b)
	}
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
