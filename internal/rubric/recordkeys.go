package rubric

import (
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// itemKeys are the suite fields read of every item whatever the rubric: the item's
// prompt, context and tags (eval.Item), and the reference answers the report shows
// and the diagnosis compares (expected_contains, expected).
var itemKeys = []string{"prompt", "input", "context", "tags", "expected", "expected_contains"}

// fieldScorers are the scorers that read no record field but their dimension's
// `expected:` path and recorded `key:`; a dimension with another scorer may read any.
var fieldScorers = map[string]bool{
	"contains": true, "exact": true, "json_schema": true, "latency": true, "tokens": true,
	"llm_judge": true, "recorded": true, "regex": true, "safety": true, "word_budget": true,
}

// RecordKeys says which top-level keys of a results record scoring with s, the report
// and the diagnosis read: the item fields above, each dimension's `expected:` and
// recorded `key:` (and name) and evaluator_error. nil means any key may be read.
func (s *System) RecordKeys() func(key string) bool {
	keys := map[string]bool{"evaluator_error": true}
	for _, k := range itemKeys {
		keys[k] = true
	}
	for _, d := range s.Dimensions {
		if !fieldScorers[d.Scorer] {
			return nil
		}
		for _, p := range []string{d.Expected, d.Key, d.Name} {
			if p != "" {
				top, _, _ := strings.Cut(p, ".")
				keys[top] = true
			}
		}
	}
	return func(k string) bool { return keys[k] }
}

// FileRunFor is a source that streams a results file for scoring with s: a record's top-level keys that nothing
// reads (RecordKeys) are checked and covered by the item's hash, not decoded.
func FileRunFor(s *System, path string) RunSource {
	keys := s.RecordKeys()
	return RunSource{File: path, Each: func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
		return eval.ScanRun(path, eval.ScanOptions{Prep: prep, Fields: keys}, fn)
	}}
}
