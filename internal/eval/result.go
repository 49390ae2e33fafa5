package eval

import (
	"encoding/json"
	"math"
	"strings"
	"unicode/utf8"
)

// Result is one record of a results file: the system under test's answer to one item.
type Result struct {
	ID string
	// Output is the answer as text. A JSON value given as `output` (an object rather
	// than a string) is kept as its JSON text.
	Output         string
	LatencyE2EMs   *float64 // latency_e2e_ms
	LatencyModelMs *float64 // latency_model_ms
	InputTokens    *float64 // input_tokens
	OutputTokens   *float64 // output_tokens
	// CachedInputTokens is the part of InputTokens the provider served from its prompt
	// cache (cached_input_tokens), billed at a lower rate.
	CachedInputTokens *float64
	TimedOut          bool   // timed_out
	Error             string // error: the system under test failed on this item
	Model             string // model, when the runner recorded it
	// Scores holds recorded raw dimension values (the `scores` object), e.g. a human or
	// external judge's 0–2 score; the `recorded` scorer reads them.
	Scores map[string]any
	// ScoreNotes says why a recorded value is what it is (the `score_notes` object: a
	// key of `scores` → the tool's reason, e.g. promptfoo's "Expected output to contain
	// '4'"); the `recorded` scorer gives it as the value's note. Each is cut to
	// MaxNoteRunes.
	ScoreNotes map[string]string
	// ExpectedAssertion is what the tool held the output to, as text (promptfoo's one
	// `contains` assertion: "contains: 14 days"), for an item that names no reference
	// answer: the report shows it as the item's expected text. Cut to MaxNoteRunes. A
	// result's field, so an item's hash never covers it.
	ExpectedAssertion string
	// Fields holds the remaining fields: suite fields carried on the record (prompt,
	// expected, ...) and recorded values at the top level.
	Fields map[string]any
	Line   int
	// Record is the decoded record as read, kept so a baseline can store the outputs
	// it was made from and re-score them later.
	Record map[string]any
	// raw is the record's line when the fast decoder read it: the item's hash is
	// computed from it (ItemFromResult), not from a re-encoding of Fields.
	raw string
	// hashFrom are the item's fields and id as the record carried them, when
	// ResultFromRecord kept only some of them in Fields (the item's hash covers them
	// all) or was told which keys are the item's.
	hashFrom map[string]any
}

// TotalTokens is input + output tokens, and whether both were recorded.
func (r *Result) TotalTokens() (float64, bool) {
	if r.InputTokens == nil || r.OutputTokens == nil {
		return 0, false
	}
	return *r.InputTokens + *r.OutputTokens, true
}

// Failed reports whether the sample timed out or errored: such a sample never passes.
func (r *Result) Failed() bool { return r.TimedOut || r.Error != "" }

// Recorded returns a recorded value by key: from `scores` first, then the top level.
func (r *Result) Recorded(key string) (any, bool) {
	if v, ok := r.Scores[key]; ok {
		return v, true
	}
	return Lookup(r.Fields, key)
}

// Ranges of the numbers a result records. Anything above is a broken record, not a
// measurement, and would overflow the sums behind p95s, means and token totals.
const (
	// MaxLatencyMs bounds latency_e2e_ms and latency_model_ms: 1e12 ms is 31 years.
	MaxLatencyMs = 1e12
	// MaxTokens bounds input_tokens and output_tokens.
	MaxTokens = 1e15
)

func numberLimit(key string) (float64, string) {
	if strings.HasPrefix(key, "latency") {
		return MaxLatencyMs, "ms"
	}
	return MaxTokens, "tokens"
}

// resultKeys are the typed fields of a results record; any other key is kept in Fields.
var resultKeys = map[string]bool{
	"id": true, "output": true, "latency_e2e_ms": true, "latency_model_ms": true,
	"input_tokens": true, "output_tokens": true, "cached_input_tokens": true, "timed_out": true, "error": true,
	"model": true, "scores": true, "score_notes": true, "expected_assertion": true,
}

// MaxNoteRunes bounds a recorded value's note (score_notes): another tool's reason is
// untrusted text of any length, and a reason is read in a table cell.
const MaxNoteRunes = 300

// ClipNote cuts a note to MaxNoteRunes runes, saying it was cut.
func ClipNote(s string) string {
	if utf8.RuneCountInString(s) <= MaxNoteRunes {
		return s
	}
	const mark = " … (cut)"
	r := []rune(s)
	return string(r[:MaxNoteRunes-utf8.RuneCountInString(mark)]) + mark
}

// newResult validates one decoded results record.
func newResult(file string, line int, f map[string]any) (*Result, error) {
	return newResultKeeping(file, line, f, nil)
}

// newResultKeeping is newResult keeping in Fields only the keys keep names (nil: all).
func newResultKeeping(file string, line int, f map[string]any, keep func(string) bool) (*Result, error) {
	rawID, ok := f["id"]
	if !ok {
		return nil, Errorf(file, line, "", "record has no \"id\"; each result names the suite item it answers")
	}
	id, ok := rawID.(string)
	if !ok || strings.TrimSpace(id) == "" {
		return nil, Errorf(file, line, "", "field \"id\" is %s; want a non-empty string", Describe(rawID))
	}
	r := &Result{ID: id, Line: line, Fields: map[string]any{}, Record: f}
	for k, v := range f {
		if !resultKeys[k] {
			if keep == nil || keep(k) {
				r.Fields[k] = v
			}
			continue
		}
		if v == nil && k != "output" {
			continue // null means not recorded
		}
		if err := r.set(file, line, k, v); err != nil {
			return nil, err
		}
	}
	if _, ok := f["output"]; !ok && r.Error == "" && !r.TimedOut {
		return nil, Errorf(file, line, id, "record has no \"output\"; record the answer, or set \"error\" or \"timed_out\"")
	}
	if err := r.checkCached(file, line); err != nil {
		return nil, err
	}
	return r, nil
}

// checkCached refuses cached input tokens that are not a part of the input tokens.
func (r *Result) checkCached(file string, line int) error {
	c := r.CachedInputTokens
	switch {
	case c == nil:
		return nil
	case r.InputTokens == nil:
		return Errorf(file, line, r.ID, "field \"cached_input_tokens\" is %v but \"input_tokens\" is not recorded; cached tokens are a part of the input tokens", *c)
	case *c > *r.InputTokens:
		return Errorf(file, line, r.ID, "field \"cached_input_tokens\" is %v, more than \"input_tokens\" %v; cached tokens are a part of the input tokens", *c, *r.InputTokens)
	}
	return nil
}

// set checks and stores the value of one of resultKeys other than id (a null other
// than output's is never passed: it means not recorded).
func (r *Result) set(file string, line int, k string, v any) error {
	bad := func(k string, v any, want string) error {
		return Errorf(file, line, r.ID, "field %q is %s; want %s", k, Describe(v), want)
	}
	switch k {
	case "output":
		switch x := v.(type) {
		case string:
			r.Output = x
		case nil:
			return Errorf(file, line, r.ID, "field \"output\" is null; record the answer, or set \"error\" when the system failed")
		default:
			b, _ := json.Marshal(x)
			r.Output = string(b)
		}
	case "latency_e2e_ms", "latency_model_ms", "input_tokens", "output_tokens", "cached_input_tokens":
		n, ok := v.(float64)
		if !ok {
			return bad(k, v, "a number")
		}
		if n < 0 || math.IsInf(n, 0) {
			return Errorf(file, line, r.ID, "field %q is %v; want a number ≥ 0", k, n)
		}
		if limit, unit := numberLimit(k); n > limit {
			return Errorf(file, line, r.ID, "field %q is %v; want at most %g %s", k, n, limit, unit)
		}
		if strings.HasSuffix(k, "_tokens") && n != math.Trunc(n) {
			return Errorf(file, line, r.ID, "field %q is %v; want a whole number", k, n)
		}
		p := new(float64)
		*p = n
		switch k {
		case "latency_e2e_ms":
			r.LatencyE2EMs = p
		case "latency_model_ms":
			r.LatencyModelMs = p
		case "input_tokens":
			r.InputTokens = p
		case "output_tokens":
			r.OutputTokens = p
		case "cached_input_tokens":
			r.CachedInputTokens = p
		}
	case "timed_out":
		b, ok := v.(bool)
		if !ok {
			return bad(k, v, "true or false")
		}
		r.TimedOut = b
	case "error", "model", "expected_assertion":
		s, ok := v.(string)
		if !ok {
			return bad(k, v, "a string")
		}
		switch k {
		case "error":
			r.Error = s
		case "model":
			r.Model = s
		default:
			r.ExpectedAssertion = ClipNote(s)
		}
	case "scores":
		m, ok := v.(map[string]any)
		if !ok {
			return bad(k, v, "an object of recorded dimension values")
		}
		r.Scores = m
	case "score_notes":
		m, ok := v.(map[string]any)
		if !ok {
			return bad(k, v, "an object of notes (a recorded value's key → why it is what it is)")
		}
		notes := make(map[string]string, len(m))
		for key, n := range m {
			if n == nil {
				continue
			}
			s, ok := n.(string)
			if !ok {
				return bad(k+"."+key, n, "a string")
			}
			notes[key] = ClipNote(s)
		}
		r.ScoreNotes = notes
	}
	return nil
}
