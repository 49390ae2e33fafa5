package importer_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

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
	seed(f, pfFile("results-0.123.1.json"), pfFile("results-0.123.1.jsonl"), pfFile("multi-0.123.1.jsonl"))
	f.Add([]byte(`{"evalId": "x", "results": {"results": [{"testCase": {}, "response": {"output": 1}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, "results.json", data, importer.Promptfoo) })
}

func FuzzLMEval(f *testing.F) {
	seed(f, lmFile("gsm8k"), lmFile("arc_easy"), lmFile("wmt16_de_en"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzImport(t, "samples_t_"+lmDate+".jsonl", data, importer.LMEval)
	})
}

func FuzzInspectJSON(f *testing.F) {
	seed(f, inspectFile("epochs.json"))
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
	f.Fuzz(func(t *testing.T, data []byte) { fuzzImport(t, "results.jsonl", data, "") })
}
