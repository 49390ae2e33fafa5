package rubric

import (
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var outputSeeds = []string{
	`{"english": "Found.", "spanish": "encontró", "explanation": "x"}`, `{"a":1}`, `{"a":1} `, "{\"a\":1}\n",
	`{"a":1}x`, `{"a":1}{}`, `[1,2.50,1e400,-0,12345678901234567890123]`, `"s"`, `1`, `null`, `true`, ``, ` `,
	`{"a":"\ud800"}`, `{"a":1,"a":2}`, `{"a":01}`, `{"a":[1,]}`, `{"a":"\x"}`, `not json`, `{"a":1e999}`,
	"{\"a\":\"\x01\"}", `{"a":{"b":[{}]}}`, "\t{\"a\":true}\r\n",
	// no number outside the strings (decoded without a Decoder): trailing data, escapes,
	// invalid UTF-8, unterminated strings
	`{"a":"b"}x`, `{}{}`, `"s" "t"`, `true false`, `nullx`, `{"a":"1-2"} `, `{"a":"\"-1"}`, `["\\",true]`,
	"{\"a\":\"\xff\"}", `{"a":"b`, `"`, `{"a" "b"}`, `[true,]`, "\ufeff{}", `{"a":[null,{"b":false}]}`,
}

func checkParseOutput(t *testing.T, text string) {
	want, werr := jsonschema.UnmarshalJSON(strings.NewReader(text))
	got, gerr := parseOutput(text)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: jsonschema.UnmarshalJSON error %v, parseOutput error %v", text, werr, gerr)
	}
	if werr == nil && !reflect.DeepEqual(want, got) {
		t.Fatalf("%q: parseOutput gives %#v, jsonschema.UnmarshalJSON %#v", text, got, want)
	}
}

// TestParseOutputMatchesJSONSchema: the json_schema scorer's decoder reads every output
// as jsonschema.UnmarshalJSON does (same values, same refusals).
func TestParseOutputMatchesJSONSchema(t *testing.T) {
	for _, s := range outputSeeds {
		checkParseOutput(t, s)
	}
}

func FuzzParseOutput(f *testing.F) {
	for _, s := range outputSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) { checkParseOutput(t, text) })
}

const benchOutput = `{"english": "Found.", "spanish": "encontró", "explanation": "Past simple of 'find' (3sg); Spanish encontrar. Ref #1."}`

func BenchmarkParseOutput(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseOutput(benchOutput); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseOutputJSONSchema(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonschema.UnmarshalJSON(strings.NewReader(benchOutput)); err != nil {
			b.Fatal(err)
		}
	}
}
