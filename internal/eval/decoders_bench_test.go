package eval_test

// The Benchmark*Decoder* benchmarks measure the JSON libraries evalgate could decode
// results records with, on the bench data (bench/gen.py's records):
//
//	DECODE_DATA=/path/items_10000.jsonl go test -run x -bench Decoder -benchtime 30000x -count 5 ./internal/eval
//
// and TestDecodersAgree checks that each decodes every record to encoding/json's values.
// docs/benchmarks.md, "JSON decoder", records the figures and the choice.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/bytedance/sonic"
	jsonv2 "github.com/go-json-experiment/json"
	goccy "github.com/goccy/go-json"

	"github.com/evalgate/evalgate/internal/eval"
)

func lines(b *testing.B) [][]byte {
	p := os.Getenv("DECODE_DATA")
	if p == "" {
		b.Skip("DECODE_DATA not set")
	}
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<26)
	for s.Scan() {
		out = append(out, bytes.Clone(s.Bytes()))
	}
	return out
}

func run(b *testing.B, dec func([]byte, *map[string]any) error) {
	ls := lines(b)
	b.ResetTimer()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		var m map[string]any
		if err := dec(ls[n%len(ls)], &m); err != nil {
			b.Fatal(err)
		}
		n++
	}
}

func BenchmarkDecoderStdlib(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return json.Unmarshal(d, m) })
}
func BenchmarkDecoderJSONv2(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return jsonv2.Unmarshal(d, m) })
}
func BenchmarkDecoderGoccy(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return goccy.Unmarshal(d, m) })
}
func BenchmarkDecoderSonic(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return sonic.Unmarshal(d, m) })
}
func BenchmarkDecoderSonicStd(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return sonic.ConfigStd.Unmarshal(d, m) })
}
func BenchmarkDecoderOnePass(b *testing.B) { run(b, decodeOnePass) }

// BenchmarkKnownKeys decodes each record into a Result as a check of the bench rubric
// does: typed keys set, only the suite fields the rubric reads decoded, the rest
// (meta) checked and skipped.
func BenchmarkDecoderKnownKeys(b *testing.B) {
	ls := lines(b)
	keep := func(k string) bool {
		switch k {
		case "prompt", "input", "context", "tags", "expected", "expected_contains":
			return true
		}
		return false
	}
	b.ResetTimer()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if _, ok := eval.DecodeResultFast(ls[n%len(ls)], keep); !ok {
			b.Fatal("left to the full path")
		}
		n++
	}
}
