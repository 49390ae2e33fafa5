package cli

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/importer"
)

// A promptfoo test named only by the hash of its vars is told by where its record is
// and the start of its vars, escaped and bounded.
func TestTestHint(t *testing.T) {
	long := strings.Repeat("é", 100)
	for _, tc := range []struct {
		name string
		rec  importer.Record
		want string
	}{
		{"json document", importer.Record{Where: "results[3]", Fields: map[string]any{"vars": map[string]any{"question": "What is the refund window?", "lang": "en", "n": 2.0}}},
			`results.json results[3], vars: lang="en", n=2, question="What is the refund window?"`},
		{"jsonl line, escaped", importer.Record{Line: 7, Fields: map[string]any{"vars": map[string]any{"q\n": "a\nb\x1b[31m"}}},
			`results.json line 7, vars: q\n="a\nb\x1b[31m"`},
		{"long vars", importer.Record{Line: 2, Fields: map[string]any{"vars": map[string]any{"q": long}}},
			`results.json line 2, vars: q="` + strings.Repeat("é", 77) + `…`},
		{"no vars", importer.Record{Where: "results[0]", Fields: map[string]any{}},
			`results.json results[0]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := testHint("out/results.json", tc.rec); got != tc.want {
				t.Errorf("testHint = %s\n            want %s", got, tc.want)
			}
		})
	}
}
