package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

// fuzzSuite is a suite whose ids hold commas, spaces and quotes, and whose halves are
// ids too: what run --only must tell apart.
func fuzzSuite(t testing.TB) *eval.Suite {
	t.Helper()
	var b strings.Builder
	for _, id := range []string{"a", "b", "a,b", "refund, it's \"03\"", "refund", " c "} {
		line, _ := json.Marshal(map[string]any{"id": id, "prompt": "q"})
		b.Write(line)
		b.WriteByte('\n')
	}
	s, err := eval.ParseSuite("suite.jsonl", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FuzzOnlyItems: run --only values (pasted from a printed command, so from ids an
// outside file gave) and an --only-from report never panic; what they select is items
// of the suite, each once, and a value that is an id whole selects that item.
func FuzzOnlyItems(f *testing.F) {
	for _, seed := range [][3]string{
		{"a", "", ""}, {"a,b", "b", ""}, {"refund, it's \"03\"", "", ""}, {"refund,it's \"03\"", " c ", ""},
		{"", "", `{"regression":{"evidence":[{"id":"a"}],"dimensions":[{"evidence":[{"id":"a,b"}]}]}}`},
		{"", "", `{"regression":null}`}, {"", "", `[[[[`}, {",,,", "", ""}, {"nope", "", ""},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	suite := fuzzSuite(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, only1, only2, report string) {
		var only []string
		for _, v := range []string{only1, only2} {
			if v != "" {
				only = append(only, v)
			}
		}
		from := ""
		if report != "" {
			from = filepath.Join(dir, "report.json")
			if err := os.WriteFile(from, []byte(report), 0o644); err != nil {
				t.Fatal(err)
			}
			only = nil
		}
		sub, err := onlyItems(suite, only, from)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for i := range sub.Len() {
			it := sub.At(i)
			if _, ok := suite.Item(it.ID); !ok || seen[it.ID] {
				t.Fatalf("selected %q: not an item of the suite, or twice", it.ID)
			}
			seen[it.ID] = true
		}
		for _, v := range only {
			if _, ok := suite.Item(v); ok && !seen[v] {
				t.Fatalf("--only %q is an id whole and did not select it", v)
			}
		}
	})
}

// FuzzTestHint: whatever a promptfoo record's vars hold, the hint that names its test
// in an error is one line, shows no control, bidi or tag character raw, and quotes at
// most varsExcerptRunes runes of them.
func FuzzTestHint(f *testing.F) {
	f.Add(`{"question":"What is the refund window?","lang":"en","n":2}`, 3)
	f.Add(`{"q\n":"a\nb\u001b[31m","nested":{"x":["\u202eevil","\udb40\udc41"]}}`, 0)
	f.Add(`{"k":null,"l":[1,2,{"m":true}]}`, 7)
	f.Add(`"not an object"`, 1)
	f.Fuzz(func(t *testing.T, vars string, line int) {
		var v any
		if json.Unmarshal([]byte(vars), &v) != nil {
			return
		}
		rec := importer.Record{Line: line, Fields: map[string]any{"vars": v}}
		if line <= 0 {
			rec = importer.Record{Where: "results[0]", Fields: rec.Fields}
		}
		hint := testHint("out/results.json", rec)
		for _, r := range hint {
			if r == '\n' || r == '\r' || !strconv.IsPrint(r) {
				t.Fatalf("testHint = %q: raw %U", hint, r)
			}
		}
		if _, excerpt, ok := strings.Cut(hint, ", vars: "); ok && utf8.RuneCountInString(excerpt) > varsExcerptRunes+1 {
			t.Fatalf("testHint quotes %d runes of the vars; want at most %d and …", utf8.RuneCountInString(excerpt), varsExcerptRunes)
		}
	})
}
