package importer_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

// fuzzImport writes data to a file named name and imports it: it must never panic or
// hang, and every failure must be an input error naming the file.
func fuzzImport(t *testing.T, name string, data []byte, format importer.Format) {
	path := filepath.Join(t.TempDir(), name)
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

func seed(f *testing.F, paths ...string) {
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
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, "results.json", data, importer.Promptfoo) })
}

func FuzzLMEval(f *testing.F) {
	seed(f, lmFile("gsm8k"), lmFile("arc_easy"), lmFile("wmt16_de_en"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzImport(t, "samples_t_"+lmDate+".jsonl", data, importer.LMEval)
	})
}

func FuzzInspectJSON(f *testing.F) {
	seed(f, inspectFile("epochs.json"), inspectFile("epochs-error.json"))
	f.Add([]byte(`{"samples": [{"id": 1, "scores": {"a": {"value": {"b": "P"}}}, "output": {}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, "log.json", data, importer.Inspect) })
}

func FuzzInspectEval(f *testing.F) {
	seed(f, inspectFile("epochs.eval"), inspectFile("unfinished.eval"), inspectFile("bare.eval"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, "log.eval", data, importer.Inspect) })
}

func FuzzDetect(f *testing.F) {
	seed(f, pfFile("results-0.123.1.jsonl"), lmFile("arc_easy"), inspectFile("epochs.json"))
	f.Add([]byte(`{"id": "a", "output": "b"}`))
	f.Add([]byte("version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 1\n"))
	f.Add(gzBytes(`{"id": "a", "output": "b"}`))
	f.Add(zstdBytes(`{"doc_id": 0, "resps": [["a"]], "filtered_resps": ["a"], "exact_match": 1}`))
	f.Add(zstdBytes(`{"eval": {"model": "m"}, "samples": [{"id": 1, "epoch": 1, "error": {"message": "boom"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, "results.jsonl", data, "") })
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
