// Package decoders measures the JSON libraries evalgate could decode results records
// with, on the bench data (bench/gen.py's records):
//
//	DECODE_DATA=/path/items_10000.jsonl go test -run x -bench . -benchtime 30000x -count 5 ./bench/decoders
//
// and checks (agree_test.go) that each decodes every record to encoding/json's values.
// docs/benchmarks.md, "JSON decoder", records the figures and the choice.
package decoders

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

func BenchmarkStdlib(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return json.Unmarshal(d, m) })
}
func BenchmarkJSONv2(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return jsonv2.Unmarshal(d, m) })
}
func BenchmarkGoccy(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return goccy.Unmarshal(d, m) })
}
func BenchmarkSonic(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return sonic.Unmarshal(d, m) })
}
func BenchmarkSonicStd(b *testing.B) {
	run(b, func(d []byte, m *map[string]any) error { return sonic.ConfigStd.Unmarshal(d, m) })
}
func BenchmarkOnePass(b *testing.B) { run(b, decodeOnePass) }

// BenchmarkKnownKeys decodes each record into a Result as a check of the bench rubric
// does: typed keys set, only the suite fields the rubric reads decoded, the rest
// (meta) checked and skipped.
func BenchmarkKnownKeys(b *testing.B) {
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
