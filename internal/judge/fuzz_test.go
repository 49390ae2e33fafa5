package judge_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/judge"
)

// FuzzParseVerdict checks that no reply crashes the parser and that whatever it
// accepts really keeps seed 001's rules: a JSON object, both scores within 0..2, a
// rationale of 1 to 80 words.
func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{
		`{"accuracy_score": 2, "faithfulness_score": 1, "rationale": "ok"}`,
		`{"accuracy_score": 3, "faithfulness_score": 1, "rationale": "ok"}`,
		`{"accuracy_score": 2.0, "faithfulness_score": 1, "rationale": "ok"}`,
		`{"accuracy_score": 2, "faithfulness_score": 1, "rationale": ""}`,
		`{"accuracy_score": 2, "faithfulness_score": 1, "rationale": "ok"} trailing`,
		"```json\n{}\n```",
		`{"accuracy_score": 1e0, "faithfulness_score": -0, "rationale": "\u00a0x"}`,
		`[]`, `null`, ``, `{`, `{"a":`,
	} {
		f.Add(s)
	}
	tmpl := judge.AccuracyFaithfulness()
	f.Fuzz(func(t *testing.T, reply string) {
		p, err := judge.ParseVerdict(tmpl, reply)
		if err != nil {
			return
		}
		var obj map[string]any
		if json.Unmarshal([]byte(reply), &obj) != nil {
			t.Fatalf("accepted a reply that is not a JSON object: %q", reply)
		}
		for _, k := range tmpl.Keys {
			v, ok := p.Scores[k.Name]
			if !ok || v < k.Min || v > k.Max {
				t.Fatalf("accepted %s = %d (present %v) from %q", k.Name, v, ok, reply)
			}
		}
		if n := len(strings.Fields(p.Rationale)); n < 1 || n > 80 {
			t.Fatalf("accepted a rationale of %d words from %q", n, reply)
		}
	})
}
