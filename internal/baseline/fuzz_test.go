package baseline_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// FuzzLoadBaseline: any bytes written as a baseline file give a baseline or an
// *eval.InputError, never a panic; a loaded baseline's recorded outputs rebuild as runs
// or fail with an *eval.InputError; and comparing the tutor example's scores with it
// gives a comparison or a refusal (*eval.InputError, *baseline.MismatchError).
//
//	go test -run x -fuzz FuzzLoadBaseline -fuzztime 30s ./internal/baseline
func FuzzLoadBaseline(f *testing.F) {
	seeds, _ := filepath.Glob("../../baselines/*.json")
	bad, _ := filepath.Glob("../cli/testdata/bad/*/baseline.json")
	for _, p := range append(seeds, bad...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"", "{}", "null", "[]", `{"schema_version": 1}`, `{"schema_version": 2}`, `{"schema_version": 2, "items": 1}`,
		"{\"schema_version\": 2, \"items\": 1}\n{\"id\": \"e-39-01\", \"runs\": 2, \"pass_bits\": \"1\"}\n",
		"{\"schema_version\": 2, \"items\": 0, \"runs\": [{}]}\n{\"run\": 0, \"record\": {\"id\": \"e-39-01\", \"output\": \"x\"}}\n",
		`{"schema_version": 1, "outputs_file": "side.outputs.jsonl.gz"}`,
		`{"schema_version": 1, "outputs_file": "missing.gz"}`,
		`{"schema_version": 1, "outputs_file": "../../../../etc/passwd"}`,
		`{"schema_version": 1, "outputs": [[null, {"id": 1}], [{"id": "e-39-01", "output": "x"}]]}`,
		`{"schema_version": 1, "scoringSystem": "scoringSystem/1.0.0", "items": [{"id": "e-39-01", "score": 2}], "runs": []}`,
		`{"schema_version": 1, "mean": 1e999}`,
		`{"schema_version": 1, "suite": "a", "suite": "b"}`,
		"\uFEFF{\"schema_version\": 1}",
	} {
		f.Add([]byte(s))
	}

	// The candidate every loaded baseline is compared with: the tutor example.
	cfg, err := config.Load("../../examples/tutor-capstone/evalgate.yaml", nil)
	if err != nil {
		f.Fatal(err)
	}
	suite, err := eval.LoadSuite(cfg.Path(cfg.Suite))
	if err != nil {
		f.Fatal(err)
	}
	run, err := eval.LoadRun(cfg.Path(cfg.Results[0]))
	if err != nil {
		f.Fatal(err)
	}
	ctx := context.Background()
	cand, err := rubric.Score(ctx, &cfg.Scoring, suite, []*eval.Run{run})
	if err != nil {
		f.Fatal(err)
	}

	dir := f.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"run": 0, "record": {"id": "e-39-01", "output": "{}"}}` + "\n" + `{"run": 3, "record": {"id": "e-39-02"}}` + "\n"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, "side.outputs.jsonl.gz"), gz.Bytes(), 0o644); err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(dir, "fuzz.json")

	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := baseline.Load(path)
		if err != nil {
			checkInputErr(t, path, err)
			return
		}
		for i, recs := range b.Outputs {
			name := "recorded run"
			if _, err := eval.RunFromRecords(name, recs); err != nil {
				var ie *eval.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("recorded run %d: error is %T, not *eval.InputError: %v", i, err, err)
				}
			}
		}
		{
			cmp, err := compareMem(cand, b, path)
			if err != nil {
				var ie *eval.InputError
				var me *baseline.MismatchError
				if !errors.As(err, &ie) && !errors.As(err, &me) {
					t.Fatalf("compare: error is %T, neither *eval.InputError nor *baseline.MismatchError: %v", err, err)
				}
				return
			}
			if cmp == nil {
				t.Fatal("compare: nil comparison and nil error")
			}
		}
	})
}

func checkInputErr(t *testing.T, path string, err error) {
	t.Helper()
	var ie *eval.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error is %T, not *eval.InputError: %v", err, err)
	}
	if ie.File != path {
		t.Fatalf("error names %q; want %q: %v", ie.File, path, err)
	}
	if strings.TrimSpace(ie.Msg) == "" {
		t.Fatalf("empty message: %#v", ie)
	}
}
