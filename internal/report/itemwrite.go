package report

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/evalgate/evalgate/internal/jsonenc"
	"github.com/evalgate/evalgate/internal/rubric"
)

// itemWriter writes a report's item straight from its score and the parts captured
// from its first sample, indented as the report is, without building the Item, boxing
// its numbers or indenting a second copy.
type itemWriter struct {
	b       []byte
	prefix  string // the item's own indentation
	first   bool
	scratch []byte
	err     error
}

// newline starts a line at the given depth inside the item.
func (w *itemWriter) newline(depth int) {
	w.b = append(w.b, '\n')
	w.b = append(w.b, w.prefix...)
	for range depth {
		w.b = append(w.b, "  "...)
	}
}

// key starts the item's next member.
func (w *itemWriter) key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.newline(1)
	w.b = jsonenc.AppendString(w.b, k, true)
	w.b = append(w.b, ':', ' ')
}

func (w *itemWriter) float(f float64) {
	if f == 0 && !math.Signbit(f) || f == 1 { // most values of pass/fail dimensions: as encoding/json writes them
		w.b = append(w.b, '0'+byte(f))
		return
	}
	var ok bool
	if w.b, ok = jsonenc.AppendFloat(w.b, f); !ok {
		w.fail(f)
	}
}

// fail records the error encoding/json gives for v (a NaN or infinite number).
func (w *itemWriter) fail(v any) {
	if w.err == nil {
		_, w.err = json.Marshal(v)
	}
}

// value writes v (at the item's member depth): a scalar as it is, an object or list
// indented one level further.
func (w *itemWriter) value(v any) {
	switch x := v.(type) {
	case nil:
		w.b = append(w.b, "null"...)
		return
	case float64:
		w.float(x)
		return
	case string:
		w.b = jsonenc.AppendString(w.b, x, false)
		return
	case json.RawMessage:
		w.raw(x)
		return
	}
	var err error
	if w.scratch, err = appendValue(w.scratch[:0], v); err != nil {
		if w.err == nil {
			w.err = err
		}
		return
	}
	w.raw(w.scratch)
}

// raw writes compact JSON at the member depth.
func (w *itemWriter) raw(x []byte) {
	if len(x) > 0 && (x[0] == '{' || x[0] == '[') {
		w.b = jsonenc.AppendIndent(w.b, x, w.prefix+"  ", "  ")
		return
	}
	if x == nil {
		x = []byte("null")
	}
	w.b = append(w.b, x...)
}

// object writes {name: v(d)} over the dimensions.
func (w *itemWriter) object(dims []rubric.Dimension, v func(d int)) {
	if len(dims) == 0 {
		w.b = append(w.b, "{}"...)
		return
	}
	w.b = append(w.b, '{')
	for d := range dims {
		if d > 0 {
			w.b = append(w.b, ',')
		}
		w.newline(2)
		w.b = jsonenc.AppendString(w.b, dims[d].Name, true)
		w.b = append(w.b, ':', ' ')
		v(d)
	}
	w.newline(1)
	w.b = append(w.b, '}')
}

// appendItem appends item i's JSON (buildItem's item with the captured parts p,
// indented under prefix) to b: the one writer of a report item.
func appendItem(b []byte, prefix string, sc *rubric.Scored, is *rubric.ItemScore, p *detailParts, scratch *[]byte) ([]byte, error) {
	sys := sc.System
	w := itemWriter{b: append(b, '{'), prefix: prefix, first: true, scratch: *scratch}
	defer func() { *scratch = w.scratch }()
	w.key("item")
	w.b = jsonenc.AppendString(w.b, is.Item.ID, false)
	w.key("prompt")
	w.raw(p.prompt)
	w.key("expected")
	w.raw(p.expected)
	w.key("got")
	w.raw(p.got)
	w.key("score")
	w.float(is.Score)
	w.key("breakdown")
	w.object(sys.Dimensions, func(d int) { w.float(is.Breakdown[d]) })
	w.key("weighted")
	w.object(sys.Dimensions, func(d int) { w.float(is.Weighted[d]) })
	raw := func(d int) any { // as buildItem reads it
		if is.Labels[d] != "" && len(sc.Runs) == 1 {
			return is.Labels[d]
		}
		if is.Raw[d] != nil {
			return *is.Raw[d]
		}
		return nil
	}
	w.key("raw")
	w.object(sys.Dimensions, func(d int) {
		if is.Labels[d] != "" && len(sc.Runs) == 1 {
			w.b = jsonenc.AppendString(w.b, is.Labels[d], false)
		} else if is.Raw[d] != nil {
			w.float(*is.Raw[d])
		} else {
			w.b = append(w.b, "null"...)
		}
	})
	w.key("pass")
	w.b = strconv.AppendBool(w.b, is.Pass)
	if is.Runs > 1 {
		w.key("pass_runs")
		w.b = strconv.AppendInt(w.b, int64(is.PassRuns), 10)
		w.key("runs")
		w.b = strconv.AppendInt(w.b, int64(is.Runs), 10)
	}
	if is.CappedBy != "" {
		w.key("capped_by")
		w.b = jsonenc.AppendString(w.b, is.CappedBy, false)
	}
	if missing := is.Missing == is.Runs; missing || is.Missing > 0 {
		w.key("missing")
		w.b = strconv.AppendBool(w.b, missing)
		w.key("missing_runs")
		w.b = strconv.AppendInt(w.b, int64(is.Missing), 10)
	}
	if is.Pending {
		w.key("pending")
		w.b = append(w.b, "true"...)
	}
	for d := range sys.Dimensions {
		if is.Errors[d] != "" {
			w.key("evaluator_error")
			w.b = jsonenc.AppendString(w.b, is.Errors[d], false)
			break
		}
	}
	var keys [8]string // the dimensions' keys written beside the item's own
	written := keys[:0]
	for d, dim := range sys.Dimensions {
		if dim.Key != "" && (dim.Scorer == "recorded" || dim.Scorer == "llm_judge") && !slices.Contains(rubric.ReportItemKeys, dim.Key) &&
			!slices.Contains(written, dim.Key) {
			written = append(written, dim.Key)
			w.key(dim.Key)
			w.value(raw(d))
		}
	}
	for _, kv := range p.sample {
		w.key(kv.Key)
		w.value(kv.Value)
	}
	if n := p.notes; len(n) > 0 && string(n) != "null" {
		w.key("notes")
		w.raw(n)
	}
	w.key("line")
	w.b = strconv.AppendInt(w.b, int64(is.Item.Line), 10)
	if tags := is.Item.Tags; len(tags) > 0 {
		w.key("tags")
		w.value(tags)
	}
	w.newline(0)
	w.b = append(w.b, '}')
	return w.b, w.err
}
