package report

import "github.com/evalgate/evalgate/internal/jsonenc"

// The tests' reference encoder of an item: the JSON report's writer (itemWriter) must
// give these bytes, indented, for every item it writes (TestStreamedItemsAreTheItemsIndented).

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
