package eval

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// decodeSeeds are records and near-records where JSON decoders tend to differ:
// repeated keys, escapes, surrogates, numbers out of range or at the edges, trailing
// bytes, bad literals.
var decodeSeeds = []string{
	`{"id":"a","output":"x"}`,
	`{"a":1e999}`, `{"a":-1e999}`, `{"a":1e-400}`, `{"a":-0}`, `{"a":123456789012345678901234567890}`,
	`{"a":"\ud800"}`, `{"a":"\udc00\ud800"}`, `{"a":"\ud83d\ude00"}`, `{"a":"x\u0000"}`, `{"a":"\/"}`,
	`{"a":1,"a":2}`, `{"a":01}`, `{"a":tru}`, `{"a":[1,]}`, `{"a":1}x`, `{"a":"\x"}`, `{"a":-}`, `{"a":1.}`,
	"{\"a\":\"\x01\"}", `{"a":1E+2}`, `{"a":{"b":null}}`, `{"a" : 1 , "b":[ ]}`, `{"a":"é"}`, `{"a":"<&>"}`,
	`{}`, `{"a":[[[[]]]],"b":{"c":{"d":{}}}}`, `{"a":true,"b":false,"c":null}`, `{"a":"\u00e9\t\n"}`,
}

// checkDecoders: wherever encoding/json decodes a record, decodeFast gives the same
// values, and wherever encoding/json refuses it, decodeFast refuses it too (so the
// error users see is always encoding/json's).
func checkDecoders(t *testing.T, data []byte) {
	var want, got map[string]any
	werr := json.Unmarshal(data, &want)
	gerr := decodeFast(data, &got)
	if werr != nil {
		if gerr == nil {
			t.Fatalf("%q: encoding/json refuses it (%v), decodeFast accepts it: %v", data, werr, got)
		}
		return
	}
	if gerr != nil {
		t.Fatalf("%q: encoding/json decodes it, decodeFast refuses it: %v", data, gerr)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%q: decodeFast gives %#v, encoding/json %#v", data, got, want)
	}
}

// TestDecodeFastMatchesEncodingJSON holds the fast decoder to encoding/json on the
// seeds and on every JSONL record of the examples and test data.
func TestDecodeFastMatchesEncodingJSON(t *testing.T) {
	for _, s := range decodeSeeds {
		checkDecoders(t, []byte(s))
	}
	files, _ := filepath.Glob("../../examples/*/results/*.jsonl")
	more, _ := filepath.Glob("../../testdata/*.jsonl")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no example results files found")
	}
	lines := 0
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		s := bufio.NewScanner(f)
		s.Buffer(nil, 1<<24)
		for s.Scan() {
			checkDecoders(t, s.Bytes())
			lines++
		}
		f.Close()
	}
	t.Logf("%d records from %d files", lines, len(files))
}

func FuzzDecodeFast(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDecoders(t, data) })
}
