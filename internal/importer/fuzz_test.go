package importer_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

// fuzzMaxDecompressed bounds a compressed input's content while fuzzing: a mutated gzip
// or zstd input can expand towards safeio.MaxDecompressedBytes (16 GiB), which stalled a
// fuzz run; the importers stop at this bound with an input error instead.
const fuzzMaxDecompressed = 1 << 20

// expandsBeyond reports whether data is gzip or zstd whose content is over limit bytes.
func expandsBeyond(data []byte, limit int64) bool {
	var r io.Reader
	switch {
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return false
		}
		r = zr
	case bytes.HasPrefix(data, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		zr, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1))
		if err != nil {
			return false
		}
		defer zr.Close()
		r = zr
	default:
		return false
	}
	n, _ := io.Copy(io.Discard, io.LimitReader(r, limit+1))
	return n > limit
}

// fuzzImport writes data to a file named name and imports it: it must never panic or
// hang, and every failure must be an input error naming the file. Compressed content
// is bounded by fuzzMaxDecompressed; an input expanding beyond it is only detected (the
// evalgate JSONL reader has its own bound, tested in internal/eval).
//
// dir is the target's directory (f.TempDir), written again on every input: a fuzz
// worker runs one input at a time, and a directory made and removed per input
// (t.TempDir) was most of an input's time.
func fuzzImport(t *testing.T, dir, name string, data []byte, format importer.Format) {
	defer importer.SetMaxDecompressed(fuzzMaxDecompressed)()
	if format == "" && expandsBeyond(data, fuzzMaxDecompressed) {
		format = importer.Promptfoo // never the evalgate reader, which reads to 16 GiB
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := importer.LoadRuns(path, importer.Options{Format: format})
	var ie *eval.InputError
	if err != nil && (!errors.As(err, &ie) || ie.File != path) {
		t.Fatalf("error %T %v; want an input error naming %s", err, err, path)
	}
	if _, err := importer.Detect(path); err != nil && !errors.As(err, &ie) {
		t.Fatalf("Detect: %T %v", err, err)
	}
}

// quickMinimize has go test -fuzz minimize a new input in at most 10 runs unless
// -fuzzminimizetime is given. The seeds are real tool files of 10 to 30 KB, and with the
// default (up to 60 s an input) the workers spent nearly all their time minimizing: about
// 1 counted input a second. With it, 100 to 200 a second on a loaded 2-core machine.
// A failing input is still written whole, to be minimized by hand if need be.
func quickMinimize(f *testing.F) {
	given := false
	flag.Visit(func(fl *flag.Flag) { given = given || fl.Name == "test.fuzzminimizetime" })
	if !given {
		if err := flag.Set("test.fuzzminimizetime", "10x"); err != nil {
			f.Fatal(err)
		}
	}
}

func seed(f *testing.F, paths ...string) {
	quickMinimize(f)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzPromptfoo(f *testing.F) {
	seed(f, pfFile("results-0.123.1.json"), pfFile("results-0.123.1.jsonl"), pfFile("multi-0.123.1.jsonl"),
		pfFile("errors/results-0.123.1.json"), pfFile("errors/results-0.100.6.jsonl"))
	f.Add([]byte(`{"evalId": "x", "results": {"results": [{"testCase": {}, "response": {"output": 1}}]}}`))
	f.Add([]byte(`{"evalId": "x", "results": {"version": 2, "results": [{"vars": {}, "response": {"output": 1}}], "table": {}}}`))
	f.Add([]byte(`{"testCase":{"description":"a","assert":[{"type":"javascript","value":"1"}]},"response":{"output":"x"},"gradingResult":{"componentResults":[{"pass":true,"score":1}]}}`))
	f.Add(gzBytes(`{"testCase":{"description":"a"},"response":{"error":"503"},"success":false,"score":0,"failureReason":2}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, dir, "results.json", data, importer.Promptfoo) })
}

func FuzzLMEval(f *testing.F) {
	seed(f, lmFile("gsm8k"), lmFile("arc_easy"), lmFile("wmt16_de_en"))
	f.Add([]byte(`{"doc_id": 0, "doc": {"x": NaN, "y": Infinity}, "resps": [["a"]], "filtered_resps": ["a"], "metrics": ["acc"], "acc": 1}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzImport(t, dir, "samples_t_"+lmDate+".jsonl", data, importer.LMEval)
	})
}

func FuzzInspectJSON(f *testing.F) {
	seed(f, inspectFile("epochs.json"), inspectFile("epochs-error.json"))
	f.Add([]byte(`{"samples": [{"id": 1, "scores": {"a": {"value": {"b": "P"}}}, "output": {}}]}`))
	f.Add([]byte(`{"results": {"m": NaN}, "samples": [{"id": "a\"NaN", "epoch": 1, "scores": {"a": {"value": NaN}, "b": {"value": -Infinity}}, "output": {"completion": "Infinity"}}]}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, dir, "log.json", data, importer.Inspect) })
}

func FuzzInspectEval(f *testing.F) {
	seed(f, inspectFile("epochs.eval"), inspectFile("unfinished.eval"), inspectFile("bare.eval"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, dir, "log.eval", data, importer.Inspect) })
}

func FuzzDetect(f *testing.F) {
	seed(f, pfFile("results-0.123.1.jsonl"), lmFile("arc_easy"), inspectFile("epochs.json"))
	f.Add([]byte(`{"id": "a", "output": "b"}`))
	f.Add([]byte("version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 1\n"))
	f.Add(gzBytes(`{"id": "a", "output": "b"}`))
	f.Add(zstdBytes(`{"doc_id": 0, "resps": [["a"]], "filtered_resps": ["a"], "exact_match": 1}`))
	f.Add(zstdBytes(`{"eval": {"model": "m"}, "samples": [{"id": 1, "epoch": 1, "error": {"message": "boom"}}]}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, dir, "results.jsonl", data, "") })
}

func gzBytes(s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	zw.Close()
	return buf.Bytes()
}

func zstdBytes(s string) []byte {
	zw, _ := zstd.NewWriter(nil)
	return zw.EncodeAll([]byte(s), nil)
}

// A compressed file expanding beyond the bound is refused with the file and the bound,
// in every format, whatever the bound (the fuzz targets lower it).
func TestCompressedBeyondBound(t *testing.T) {
	defer importer.SetMaxDecompressed(1 << 20)()
	bomb := gzBytes(`{"evalId": "x", "results": {"results": [` + strings.Repeat(" ", 2<<20) + `]}}`)
	for _, f := range []importer.Format{importer.Promptfoo, importer.Inspect, importer.LMEval} {
		path := filepath.Join(t.TempDir(), "samples_t_"+lmDate+".jsonl")
		if err := os.WriteFile(path, bomb, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := importer.LoadRuns(path, importer.Options{Format: f})
		if err == nil || !strings.Contains(err.Error(), path+": decompresses to more than 1 MiB, the limit") {
			t.Errorf("%s: %v; want the bound", f, err)
		}
	}
	if !expandsBeyond(bomb, 1<<20) || expandsBeyond(gzBytes("{}"), 1<<20) {
		t.Error("expandsBeyond")
	}
}
