// Package importer reads the results other eval tools write — promptfoo, EleutherAI's
// lm-evaluation-harness and UK AISI's Inspect AI — and turns each of their records into an
// evalgate results record: id, output, latency, tokens, error, the tool's own scores as
// recorded dimension values under `scores`, and the suite fields the file carries
// (prompt, expected, tags). One file per tool; Read picks the importer from Options.Format
// or from the file's content.
package importer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// Format names a results file format.
type Format string

// The formats evalgate reads.
const (
	Evalgate  Format = "evalgate"  // evalgate's own JSONL
	Promptfoo Format = "promptfoo" // promptfoo `-o results.json` or `-o results.jsonl`
	LMEval    Format = "lm-eval"   // lm-evaluation-harness `samples_<task>_<date>.jsonl`
	Inspect   Format = "inspect"   // Inspect AI `.eval` (zip) or `.json` EvalLog
)

// Formats lists the accepted --results-format values, for flags and messages.
var Formats = []Format{Evalgate, Promptfoo, LMEval, Inspect}

// FormatNames is Formats joined for messages.
func FormatNames() string {
	var s []string
	for _, f := range Formats {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}

// ParseFormat checks a --results-format value; "" and "auto" mean detect.
func ParseFormat(s string) (Format, error) {
	if s == "" || s == "auto" {
		return "", nil
	}
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown results format %q; want %s (or leave it out to detect it)", s, FormatNames())
}

// Options are the choices an import may need.
type Options struct {
	Format Format // "" detects it from the content
	// IDField names the promptfoo test variable (or `metadata.KEY`) whose value is the
	// item id, instead of the test's description or a hash of its vars.
	IDField string
	// Prompt chooses one prompt/provider pair of a promptfoo file that holds several: its
	// index, its provider id or label, or its prompt label.
	Prompt string
	// Filter chooses one lm-eval filter (e.g. "strict-match") when the samples carry several.
	Filter string
	// LMEvalResults is an lm-eval `results_<date>.json` for the model and version
	// metadata; "" looks for the one written beside the samples file.
	LMEvalResults string
	// FirstRun makes LoadRuns keep the first run only (the first repeat or epoch): the
	// others are read and checked, not held.
	FirstRun bool
	// onePass, idsByVars and lmMerged: see readPromptfoo and readLMEval (set by Direct).
	onePass, idsByVars, lmMerged bool
	// Warn receives warnings (skipped corpus-level metrics, an incomplete log). nil drops them.
	Warn func(string)
}

func (o *Options) warn(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

// Record is one evalgate results record produced by an importer.
type Record struct {
	// Run is the 0-based run the record belongs to: promptfoo's --repeat, Inspect's epochs.
	Run int
	// Line is the record's line in a JSONL file; 0 for a record inside one JSON document
	// or an archive, where Where says which.
	Line int
	// Where names the record in messages when there is no line: "results[3]",
	// "samples/7_epoch_2.json".
	Where string
	// Fields is the record in evalgate's results shape.
	Fields map[string]any
}

// Meta is what a file says about the run as a whole.
type Meta struct {
	Format Format
	// Metadata is run metadata (model_id, model_version, ...) for the report.
	Metadata map[string]string
	// Dimensions are the recorded score keys seen, in first-seen order, with the scale
	// that holds every value seen ("unit", "pass_fail").
	Dimensions []Dimension
	// SuiteFields says the records carry suite fields (prompt, expected), so no separate
	// suite is needed.
	SuiteFields bool
	// Incomplete says the log was still being written; its records are what there was.
	Incomplete bool
}

// Dimension is a recorded score an imported file carries.
type Dimension struct {
	Key   string // the key under `scores`
	Scale string // "unit" (numbers in [0, 1]), "pass_fail" (booleans) or "" (other numbers)
	Min   float64
	Max   float64
	// Count is how many records carry it.
	Count int
}

// dimTracker collects the score keys records carry.
type dimTracker struct {
	order []string
	byKey map[string]*Dimension
}

func (t *dimTracker) see(scores map[string]any) {
	if t.byKey == nil {
		t.byKey = map[string]*Dimension{}
	}
	for _, k := range sortedKeys(scores) {
		d, ok := t.byKey[k]
		if !ok {
			d = &Dimension{Key: k, Min: 1, Max: 0}
			t.byKey[k] = d
			t.order = append(t.order, k)
		}
		d.Count++
		switch v := scores[k].(type) {
		case bool:
			if d.Count == 1 {
				d.Scale = "pass_fail"
			} else if d.Scale != "pass_fail" {
				d.Scale = ""
			}
		case float64:
			if d.Count == 1 || v < d.Min {
				d.Min = v
			}
			if d.Count == 1 || v > d.Max {
				d.Max = v
			}
			if d.Count == 1 {
				d.Scale = "unit"
			}
			if d.Scale == "pass_fail" || d.Min < 0 || d.Max > 1 {
				d.Scale = ""
			}
		}
	}
}

func (t *dimTracker) list() []Dimension {
	out := make([]Dimension, 0, len(t.order))
	for _, k := range t.order {
		out = append(out, *t.byKey[k])
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// errAt builds the error every importer returns: the file, the record (its line, or
// where it sits in the document) and what is wrong with which field.
func errAt(file string, line int, where, item, format string, args ...any) *eval.InputError {
	msg := fmt.Sprintf(format, args...)
	if where != "" {
		msg = where + ": " + msg
	}
	return &eval.InputError{File: file, Line: line, Item: item, Msg: msg}
}

// suiteKeys are the record fields that describe the item rather than the answer.
var suiteKeys = map[string]bool{
	"prompt": true, "input": true, "expected": true, "tags": true, "context": true,
	"description": true, "vars": true, "doc": true, "choices": true, "metadata": true,
}

// ItemKey says a record field describes the item rather than the answer: the fields
// import writes to suite.jsonl (SplitSuite), and the only ones an item's hash covers
// when check, score or baseline read the tool's file itself, so both name an item
// alike and an item answered at another cost, or with another filtered answer, is
// the same item.
func ItemKey(k string) bool { return suiteKeys[k] }

// SplitSuite splits an imported record into its results fields and its suite item
// (nil when the record carries no suite field).
func SplitSuite(fields map[string]any) (result, item map[string]any) {
	result = map[string]any{}
	for k, v := range fields {
		if ItemKey(k) {
			if item == nil {
				item = map[string]any{"id": fields["id"]}
			}
			item[k] = v
			continue
		}
		result[k] = v
	}
	return result, item
}
