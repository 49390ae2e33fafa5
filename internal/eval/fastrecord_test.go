package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fastSeeds are records and values where a hand decoder or a re-encoder could differ
// from encoding/json: escapes (in keys too), surrogates, invalid UTF-8, HTML
// characters, U+2028, numbers at the edges of float64 and of json.Marshal's exponent
// format (1e-6, 1e21), negative zero, repeated keys at the top and inside values,
// nesting, typed result keys of every kind, and broken JSON.
var fastSeeds = []string{
	`{"id":"a","output":"x"}`,
	`{"id":"a","output":"x","prompt":"p","expected":"e","tags":["t1","t2"],"context":"c"}`,
	`{"id":"a","output":{"english":"Found.","n":[1,2.5,-0,1e21,1e20,1e-6,1e-7]},"scores":{"acc":2}}`,
	`{"id":"a","output":"x","latency_e2e_ms":12.5,"latency_model_ms":null,"input_tokens":3,"output_tokens":4,"model":"m","timed_out":false}`,
	`{"id":"a","error":"boom","timed_out":true}`, `{"id":"a","timed_out":true}`, `{"id":"a"}`,
	`{"id":"a","output":null}`, `{"id":"a","output":"x","latency_e2e_ms":-1}`, `{"id":"a","output":"x","input_tokens":1.5}`,
	`{"id":"a","output":"x","latency_e2e_ms":1e13}`, `{"id":"a","output":"x","scores":[1]}`, `{"id":"a","output":"x","timed_out":"no"}`,
	`{"id":" ","output":"x"}`, `{"id":1,"output":"x"}`, `{"output":"x"}`, `{}`, `[]`, `"x"`, ` {"id":"a","output":"x"} `,
	`{"id":"a","output":"x","id":"b"}`, `{"id":"a","output":"x","\u0069d":"b"}`, `{"id":"a","output":"x","m":{"b":1,"b":2}}`,
	`{"id":"a","output":"x","m":{"\u0062":1,"b":2,"a":{"z":null,"y":true}}}`, `{"id":"a","\u006fut\u0070ut":"x"}`,
	`{"id":"a","output":"x","s":"\ud800"}`, `{"id":"a","output":"x","s":"\udc00\ud800"}`, `{"id":"a","output":"x","s":"\ud83d\ude00"}`,
	`{"id":"a","output":"x","s":"\ud800\u0041"}`, `{"id":"a","output":"x","s":"\ud800\\"}`, `{"id":"a","output":"x","s":"x\u0000\u001f\b\f\n\r\t\/\\\""}`,
	`{"id":"a","output":"x","s":"<&> \u2028 \u2029 é ` + "\u2028" + `"}`, `{"id":"a","output":"x","<k>":"&"}`,
	"{\"id\":\"a\",\"output\":\"x\",\"s\":\"\xff\"}", "{\"id\":\"a\",\"output\":\"x\",\"s\":\"\x01\"}",
	`{"id":"a","output":"x","n":1e999}`, `{"id":"a","output":"x","n":-1e999}`, `{"id":"a","output":"x","n":1e-400}`,
	`{"id":"a","output":"x","n":123456789012345678901234567890}`, `{"id":"a","output":"x","n":5e-324}`, `{"id":"a","output":"x","n":1.7976931348623157e308}`,
	`{"id":"a","output":"x","n":0.000001}`, `{"id":"a","output":"x","n":0.0000001}`, `{"id":"a","output":"x","n":999999999999999999999}`,
	`{"id":"a","output":"x","n":1E+2}`, `{"id":"a","output":"x","n":-0.0}`, `{"id":"a","output":"x","n":01}`, `{"id":"a","output":"x","n":1.}`,
	`{"id":"a","output":"x","n":-}`, `{"id":"a","output":"x","n":.5}`, `{"id":"a","output":"x","n":+1}`, `{"id":"a","output":"x","n":1e}`,
	`{"id":"a","output":"x","n":tru}`, `{"id":"a","output":"x","n":[1,]}`, `{"id":"a","output":"x",}`, `{"id":"a","output":"x"}x`,
	`{"id":"a","output":"x"} {"id":"b"}`, `{"id":"a","output":"x","s":"\x"}`, `{"id":"a","output":"x","s":"\u12"}`,
	`{"id":"a" , "output" : "x" , "b" : [ ] , "c" : { } }`, `{"id":"a","output":"x","b":[[[[]]]],"c":{"d":{"e":{}}}}`,
	`{"id":"a","output":"x","meta":{"verb":"find","checks":{"english":1,"spanish":1},"score":1.0,"pass":true}}`,
	`{"id":"a","output":"x","d":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}`,
	`{"id":"a","output":"x","n":[0,-0,10,-10,123456789012345,-123456789012345,1234567890123456,9007199254740993,1e2,100]}`,
	"{\"id\":\"a\",\"output\":\"x\",\"d\x7fel\":\"\x7f~ \",\"a<b\":\"\\u003c\"}",
	"{\"id\":\"a\",\"output\":\"x\",\"é\u2028k\":\"\u2029—\u00a0€\U0001F600\",\"ék\":{\"b\":\"\u2028\",\"a\":\"\xe2\x80\xa7\"}}",
	`{"id":"a","output":"x","meta":{"n":1e999}}`, `{"id":"a","output":"x","meta":["\x"]}`, `{"id":"a","output":"x","meta":{"a":[1,]}}`,
	"{\"id\":\"a\",\"output\":\"x\",\"meta\":{\"a\":\"\xff\"}}", `{"id":"a","output":"x","meta":"\u00e9\ud800"}`,
}

// fullResult is the Result the full path (decodeRecord, newResult) gives, or its error.
func fullResult(data []byte) (*Result, error) {
	fields, err := decodeRecord("r.jsonl", 3, data)
	if err != nil {
		return nil, err
	}
	res, err := newResult("r.jsonl", 3, fields)
	if err != nil {
		return nil, err
	}
	res.Record = nil
	return res, nil
}

// checkFastRecord: wherever the fast decoder takes a line, it gives the Result of the
// full path and the item hash hashFields gives for the item's fields; wherever the full
// path refuses a line, the fast decoder leaves it to the full path (whose message users
// see). It reports whether the fast decoder took the line.
func checkFastRecord(t *testing.T, data []byte) bool {
	t.Helper()
	want, werr := fullResult(data)
	var d jsonScan
	got, ok := decodeResultFast("r.jsonl", 3, data, &d, nil)
	if !ok {
		return false
	}
	if werr != nil {
		t.Fatalf("%q: the full path refuses it (%v), the fast decoder takes it: %+v", data, werr, got)
	}
	raw := got.raw
	got.raw = ""
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: fast decoder gives %+v, full path %+v", data, got, want)
	}
	wantItem, werr := ItemFromResult("r.jsonl", want)
	got.raw = raw
	gotItem, gerr := ItemFromResult("r.jsonl", got)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%q: item error %v vs %v", data, gerr, werr)
	}
	if werr == nil && gotItem.Hash != wantItem.Hash {
		c := canonical{}
		c.object(raw, 0, true)
		t.Fatalf("%q: item hash from the line %s (%s), from the fields %s", data, gotItem.Hash, c.out, wantItem.Hash)
	}
	// Decoding only some keys: the same Result with just those in Fields, the same
	// item hash, and the same lines left to the full path.
	keep := func(k string) bool { return k == "prompt" || k == "s" || k == "b" || k == "tags" }
	part, ok := decodeResultFast("r.jsonl", 3, data, &d, keep)
	if !ok {
		t.Fatalf("%q: taken with every key decoded, left to the full path with some", data)
	}
	for k := range want.Fields {
		if !keep(k) {
			delete(want.Fields, k)
		}
	}
	part.raw = ""
	if !reflect.DeepEqual(part, want) {
		t.Fatalf("%q: decoding some keys gives %+v, want %+v", data, part, want)
	}
	part.raw = raw
	if partItem, err := ItemFromResult("r.jsonl", part); (err == nil) != (gerr == nil) || (err == nil && partItem.Hash != gotItem.Hash) {
		t.Fatalf("%q: item from some keys %v (%v); from all %v (%v)", data, partItem, err, gotItem, gerr)
	}
	return true
}

// checkCanonical: any JSON value the fast scanner takes decodes to encoding/json's value,
// and its canonical form is json.Marshal's encoding of that value.
func checkCanonical(t *testing.T, data []byte) {
	t.Helper()
	var want any
	werr := json.Unmarshal(data, &want)
	d := jsonScan{s: string(data)}
	got, ok := d.value()
	if ok {
		d.ws()
		ok = d.i == len(d.s)
	}
	if !ok {
		return
	}
	if werr != nil {
		t.Fatalf("%q: encoding/json refuses it (%v), the fast scanner takes it: %#v", data, werr, got)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: fast scanner gives %#v, encoding/json %#v", data, got, want)
	}
	wantJSON, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var c canonical
	c.value(d.s, 0)
	if !bytes.Equal(c.out, wantJSON) {
		t.Fatalf("%q: canonical %s, json.Marshal %s", data, c.out, wantJSON)
	}
}

// benchRecord is a record shaped as bench/gen.py writes them.
func benchRecord(i int) string {
	return fmt.Sprintf(`{"id": "conj-%07d", "prompt": "Conjugate 'find' — past simple, 3rd singular.", "expected_contains": {"english": ["found"], "spanish": ["encontró"]}, "output": "{\"english\": \"Found.\", \"spanish\": \"encontró\", \"explanation\": \"Ref #%d.\"}", "meta": {"verb": "find", "tense": "past simple", "variant": "v%d", "checks": {"english": 1, "spanish": 1, "json": 1, "schema": 1, "words": 1}, "score": 1.0, "pass": true}}`, i, i, i%4)
}

// TestFastRecordMatchesFullPath holds the fast decoder and the line hash to the full
// path on the seeds, the bench records and every JSONL record of the examples and test
// data; the well-formed records there must all take the fast path.
func TestFastRecordMatchesFullPath(t *testing.T) {
	for _, s := range append(fastSeeds, decodeSeeds...) {
		checkFastRecord(t, []byte(s))
		checkCanonical(t, []byte(s))
	}
	for i := range 8 {
		if !checkFastRecord(t, []byte(benchRecord(i))) {
			t.Fatalf("bench record %d took the full path", i)
		}
	}
	files, _ := filepath.Glob("../../examples/*/results/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no example results files found")
	}
	fast := 0
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		s := bufio.NewScanner(f)
		s.Buffer(nil, 1<<24)
		for s.Scan() {
			if len(bytes.TrimSpace(s.Bytes())) == 0 {
				continue
			}
			if !checkFastRecord(t, s.Bytes()) {
				t.Errorf("%s: %q took the full path", p, s.Bytes())
			}
			checkCanonical(t, s.Bytes())
			fast++
		}
		f.Close()
	}
	t.Logf("%d example records decoded by the fast path, equal to the full path", fast)
}

func FuzzFastRecord(f *testing.F) {
	for _, s := range append(fastSeeds, decodeSeeds...) {
		f.Add([]byte(s))
	}
	f.Add([]byte(benchRecord(1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastRecord(t, data)
		checkCanonical(t, data)
	})
}

// BenchmarkDecodeLine compares the two ways a results line becomes a Result and its
// item (with the item's hash): the fast decoder and the full path.
//
//	go test -run x -bench DecodeLine -benchmem ./internal/eval
func BenchmarkDecodeLine(b *testing.B) {
	lines := make([][]byte, 64)
	for i := range lines {
		lines[i] = []byte(benchRecord(i))
	}
	b.Run("fast", func(b *testing.B) {
		var d jsonScan
		for i := 0; b.Loop(); i++ {
			res, ok := decodeResultFast("r.jsonl", 1, lines[i%len(lines)], &d, keepBench)
			if !ok {
				b.Fatal("full path")
			}
			if _, err := ItemFromResult("r.jsonl", res); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			res, err := fullResult(lines[i%len(lines)])
			if err != nil {
				b.Fatal(err)
			}
			if _, err := ItemFromResult("r.jsonl", res); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// keepBench is what the bench's rubric reads of a record (rubric.System.RecordKeys).
func keepBench(k string) bool {
	switch k {
	case "prompt", "input", "context", "tags", "expected", "expected_contains":
		return true
	}
	return false
}

// BenchmarkItemHashOfLine is the item hash of a bench record from its line.
func BenchmarkItemHashOfLine(b *testing.B) {
	line := benchRecord(7)
	want := hashFields(func() map[string]any {
		res, _ := fullResult([]byte(line))
		it, _ := ItemFromResult("r.jsonl", res)
		return it.Fields
	}())
	if got := itemHashOfLine(line); got != want {
		b.Fatalf("hash %s; want %s", got, want)
	}
	for b.Loop() {
		itemHashOfLine(line)
	}
}

// DecodeObjectKeysFast builds only the keys asked for, with encoding/json's values, and
// leaves to the full path what it must refuse or cannot settle alone.
func TestDecodeObjectKeysFast(t *testing.T) {
	keep := func(k string) bool { return k == "a" || k == "c" }
	m, ok := DecodeObjectKeysFast([]byte(` {"a": {"x": [1, "é\n"]}, "b": {"big": [true, null]}, "c": -2.5e-3} `), keep)
	want := map[string]any{"a": map[string]any{"x": []any{1.0, "é\n"}}, "c": -2.5e-3}
	if !ok || !reflect.DeepEqual(m, want) {
		t.Errorf("got %v, %v; want %v", m, ok, want)
	}
	for _, bad := range []string{
		`{"a": 1, "a": 2}`,     // a repeated key: encoding/json's last-wins
		`{"a": 1, "b": 1e999}`, // out of range in an unread key
		`{"a": 1, "b": [}`,     // malformed in an unread key
		`{"a": 1} {}`,          // two values
		`[1]`,
	} {
		if _, ok := DecodeObjectKeysFast([]byte(bad), keep); ok {
			t.Errorf("%s: taken; want the full path", bad)
		}
	}
	if v, ok := DecodeValueFast([]byte(` "x\u00e9" `)); !ok || v != "xé" {
		t.Errorf("DecodeValueFast: %v, %v", v, ok)
	}
}

// DecodeObjectPathsFast builds only the parts its paths name, at any depth and in every
// element of a list, each with encoding/json's value; what it leaves out is still checked.
func TestDecodeObjectPathsFast(t *testing.T) {
	paths := Paths{
		"a": {"x": nil, "y": {"k": nil}}, // of a, x whole and y's k
		"l": {"s": nil},                  // each element's s
		"w": nil,                         // all of w
	}
	doc := `{"a": {"x": {"deep": [1, {"z": "é"}]}, "y": {"k": true, "drop": {"q": 1}}, "drop": "s\"t"},
		"l": [{"s": 1, "t": 2}, {"t": 3}, 4, "str"], "w": {"m": [null]}, "skip": {"n": [1, 2]}}`
	m, ok := DecodeObjectPathsFast([]byte(doc), paths, nil)
	want := map[string]any{
		"a": map[string]any{"x": map[string]any{"deep": []any{1.0, map[string]any{"z": "é"}}}, "y": map[string]any{"k": true}},
		"l": []any{map[string]any{"s": 1.0}, map[string]any{}, 4.0, "str"},
		"w": map[string]any{"m": []any{nil}},
	}
	if !ok || !reflect.DeepEqual(m, want) {
		t.Errorf("got %v, %v; want %v", m, ok, want)
	}
	for _, bad := range []string{
		`{"a": {"drop": 1e999}}`,                    // out of range in a part left out
		`{"a": {"y": {"drop": [}}}`,                 // malformed in a part left out
		`{"l": [{"t": "\ud800x"}], "a": 1, "a": 2}`, // a repeated top-level key
		`{"skip": tru}`,
	} {
		if _, ok := DecodeObjectPathsFast([]byte(bad), paths, nil); ok {
			t.Errorf("%s: taken; want the full path", bad)
		}
	}
}

// With a Scratch, the filtered objects' maps serve the next record once released; the
// values kept whole are the caller's and stay as they were.
func TestDecodeObjectPathsFastScratch(t *testing.T) {
	paths := Paths{"f": {"a": nil}, "w": nil}
	var s Scratch
	first, ok := DecodeObjectPathsFast([]byte(`{"f": {"a": 1, "b": 2}, "w": {"x": [1]}}`), paths, &s)
	if !ok {
		t.Fatal("first record not taken")
	}
	whole, filtered := first["w"].(map[string]any), first["f"].(map[string]any)
	s.Release()
	if len(first) != 0 || len(filtered) != 0 {
		t.Errorf("released maps not emptied: %v %v", first, filtered)
	}
	if want := map[string]any{"x": []any{1.0}}; !reflect.DeepEqual(whole, want) {
		t.Errorf("value kept whole changed by Release: %v; want %v", whole, want)
	}
	second, ok := DecodeObjectPathsFast([]byte(`{"f": {"a": "z"}}`), paths, &s)
	if want := map[string]any{"f": map[string]any{"a": "z"}}; !ok || !reflect.DeepEqual(second, want) {
		t.Errorf("second record %v, %v; want %v", second, ok, want)
	}
	if len(s.free) != 0 || len(s.lent) != 2 {
		t.Errorf("second record took %d new map(s) (free %d); want the 2 released ones again", len(s.lent), len(s.free))
	}
}

// fuzzPaths filters a few keys at two depths and keeps one whole: what the fuzzer's
// objects are decoded by in FuzzDecodeObjectPathsFast.
var fuzzPaths = Paths{"a": {"x": nil, "y": {"k": nil}}, "l": {"s": nil}, "w": nil}

// prune is v (encoding/json's value) cut down to the parts paths names.
func prune(v any, paths Paths) any {
	switch x := v.(type) {
	case map[string]any:
		if paths == nil {
			return x
		}
		out := map[string]any{}
		for k, sub := range paths {
			if e, ok := x[k]; ok {
				out[k] = prune(e, sub)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = prune(e, paths)
		}
		return out
	}
	return v
}

// What DecodeObjectPathsFast takes, encoding/json decodes too, to the same values on
// the paths named (through a Scratch used again and again, released between records).
func FuzzDecodeObjectPathsFast(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a": {"x": [1, {"z": "é"}], "y": {"k": true, "j": 2}, "q": 3}, "l": [{"s": 1, "t": 2}, 4], "w": {"m": [null]}, "o": {}}`))
	var scratch Scratch
	f.Fuzz(func(t *testing.T, data []byte) {
		defer scratch.Release()
		got, ok := DecodeObjectPathsFast(data, fuzzPaths, &scratch)
		if !ok {
			return
		}
		var full map[string]any
		if err := json.Unmarshal(data, &full); err != nil {
			t.Fatalf("%q: taken, but encoding/json refuses it: %v", data, err)
		}
		if want := prune(full, fuzzPaths); !reflect.DeepEqual(any(got), want) {
			t.Fatalf("%q: got %v; encoding/json gives %v", data, got, want)
		}
	})
}
