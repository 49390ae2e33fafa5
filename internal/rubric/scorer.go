package rubric

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// Scorer scores one dimension of one sample. An error is bad input (a configured field
// the record lacks, a recorded value off its scale): evalgate stops with exit code 2.
// A poor answer is never an error: it is a low Value.
type Scorer interface {
	Score(in *Input) (Value, error)
}

// Preparer is a scorer that works in batches before Score is called, such as a judge
// that fans requests out to a model with a worker pool.
type Preparer interface {
	Prepare(ctx context.Context, inputs []*Input) error
}

// Input is what a scorer sees of one sample.
type Input struct {
	Item   *eval.Item
	Result *eval.Result
	Run    int // index of the run (results file)
	// Draw is 0 in a full run; in a re-run of some items (RunSource.Partial) it is
	// Run + 1, so a judge asks afresh about an output it has judged in another run.
	Draw int
	Text string // the output, or the configured field of a JSON output
	// TextErr says why Text could not be read (output not JSON, field absent); the
	// output-based scorers then score the dimension 0.
	TextErr string
	// Verdict is a judge's verdict given by a rubric test (`judge_verdict:`): the
	// template's keys and raw scores, or, per judge name, a map of them. An llm_judge
	// dimension reads it instead of asking its judge, so the test checks the rubric's
	// arithmetic whatever model is configured.
	Verdict map[string]any
}

// Value is one dimension's verdict on one sample.
type Value struct {
	Raw      *float64 // raw value on the dimension's scale; nil is null (judge parse error)
	Label    string   // pass_fail scale: pass, fail, n/a or stale
	Norm     float64  // normalized to [0, 1]; 0 when Raw is nil
	Excluded bool     // n/a or stale: left out of means and weights
	Error    string   // evaluator_error, e.g. "parse_error"
	Note     string   // why the value is what it is, when it is not obvious
}

// Factory builds a scorer for a dimension, checking its options.
type Factory func(d *Dimension, env *Env) (Scorer, error)

// Env gives factories what lies outside the dimension: other config parts (judges).
type Env struct {
	// Judges builds llm_judge scorers; the config loader fills its Configs from the
	// `judges:` block. nil: no judge may be used.
	Judges *Judges
}

type scorerInfo struct {
	factory      Factory
	defaultScale string
	usesOutput   bool // reads the output text (output_field applies)
}

var registry = map[string]scorerInfo{}

func register(name string, defaultScale string, usesOutput bool, f Factory) {
	registry[name] = scorerInfo{factory: f, defaultScale: defaultScale, usesOutput: usesOutput}
}

// ScorerNames lists the known scorers, for messages and the config schema.
func ScorerNames() []string {
	var names []string
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func scorerList() string { return strings.Join(ScorerNames(), ", ") }

// num returns a Value for a raw number on a scale.
func num(raw float64, sc Scale, byMax bool) Value {
	r := raw
	return Value{Raw: &r, Norm: sc.normalize(raw, byMax)}
}

// binary is a 0/1 Value with an optional note.
func binary(ok bool, note string) Value {
	if ok {
		return num(1, scales["binary"], false)
	}
	v := num(0, scales["binary"], false)
	v.Note = note
	return v
}

func optErr(d *Dimension, format string, args ...any) error {
	return fmt.Errorf("dimension %q (scorer %s): %s", d.Name, d.Scorer, fmt.Sprintf(format, args...))
}
