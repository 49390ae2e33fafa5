package cli

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
)

// wantInputError fails t unless err is an *eval.InputError that names path.
func wantInputError(t *testing.T, err error, path string) {
	t.Helper()
	var ie *eval.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error is %T, not *eval.InputError: %v", err, err)
	}
	if ie.File != path || strings.TrimSpace(ie.Msg) == "" {
		t.Fatalf("error names %q (want %q) or says nothing: %v", ie.File, path, err)
	}
}

// wantStarterConfig fails t unless the starter config init writes from dims parses as
// a config, with the dimensions in dims' order and the rerun: command given.
func wantStarterConfig(t *testing.T, tool string, dims []initDim, rerun string) *config.Config {
	t.Helper()
	text := initConfig("suite", tool, "from\nfile", "results.json", "", rerun, dims)
	path := filepath.Join(t.TempDir(), "evalgate.yaml")
	cfg, err := config.Parse(path, []byte(text), nil)
	if err != nil {
		t.Fatalf("init's config does not parse: %v\n%s", err, text)
	}
	var got, want []string
	for _, d := range cfg.Scoring.Dimensions {
		got = append(got, d.Name)
	}
	for _, d := range dims {
		want = append(want, d.name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("dimensions %q, want %q", got, want)
	}
	return cfg
}

// FuzzPromptfooConfigDims: `init --from promptfooconfig.yaml` reads a config another
// tool owns. Any bytes give dimensions or an *eval.InputError naming the file, never a
// panic (goccy/go-yaml panicked on `assert: !!str` before it went through safeio), and
// the starter config written from the dimensions always parses.
//
//	go test -run x -fuzz FuzzPromptfooConfigDims ./internal/cli
func FuzzPromptfooConfigDims(f *testing.F) {
	for _, s := range []string{
		"tests:\n  - description: a\n    assert:\n      - {type: contains, value: x}\n      - {type: contains, value: y}\n      - {type: llm-rubric, metric: Tone}\n",
		"defaultTest:\n  assert:\n    - {type: javascript, metric: \"score\"}\n    - {type: is-json, metric: \"a b/c\"}\ntests: [{vars: {q: 1}}]\n",
		"defaultTest:\n  assert: !!str\n    x\n", "tests: !!str\n  x\n", "tests: file://tests.csv\n",
		"x:\n  - &a0 [x]\n  - &a1 [*a0, *a0, *a0, *a0]\ntests: [{assert: *a1}]\n",
		"tests: [{assert: [{metric: \"\\u202e\"}, {type: 7}, [1]]}]\n", "", "[]", "\xff",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "promptfooconfig.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		dims, err := promptfooConfigDimsOf(path, data)
		if err != nil {
			wantInputError(t, err, path)
			return
		}
		wantStarterConfig(t, "promptfoo", dims, rerunTemplate("promptfoo", "promptfooconfig.yaml", nil))
	})
}

// FuzzLMResultsDims: `init --from results_<date>.json` reads lm-eval's summary file.
// Any bytes give dimensions or an *eval.InputError naming the file, never a panic; the
// starter config parses, and its rerun: command carries the file's model_args as one
// argument, exactly as the file gave it.
//
//	go test -run x -fuzz FuzzLMResultsDims ./internal/cli
func FuzzLMResultsDims(f *testing.F) {
	for _, s := range []string{
		`{"results":{"gsm8k":{"exact_match,strict-match":0.5,"exact_match_stderr,strict-match":0.1,"exact_match,flexible-extract":0.6}},"config":{"model_args":"pretrained=EleutherAI/pythia-70m,dtype=float32"}}`,
		`{"results":{"arc":{"acc,none":0.3,"acc_norm,none":0.4,"perplexity,none":3}},"config":{"model_args":"a: b\n- c, \"d\" {e} #f"}}`,
		`{"results":{"a":{},"b":{}}}`, `{"results":{"a":{"bleu,none":1}}}`, `{"results":null}`, `[[[[`, ``,
		`{"results":{"t":{"acc,none":1}},"config":{"model_args":{"pretrained":"x"}}}`,
		`{"results":{"t":{"\u202eacc,none":1,"true,":2}},"config":{"model_args":"true"}}`,
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "results_2026-11-27T00-00-00.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		dims, _, meta, err := lmResultsDimsOf(path, data)
		if err != nil {
			wantInputError(t, err, path)
			return
		}
		cfg := wantStarterConfig(t, "lm-eval", dims, rerunTemplate("lm-eval", "", meta))
		if args := cfg.Rerun; meta["model_args"] != "" {
			i := slices.Index(args, "--model_args")
			if i < 0 || i+1 >= len(args) || args[i+1] != meta["model_args"] {
				t.Fatalf("rerun %q does not carry model_args %q as one argument", args, meta["model_args"])
			}
		}
	})
}

// FuzzLoadSnapshot: `evalgate compare` reads two files a user names, each a JSON
// report or a baseline. Any bytes give a snapshot or an *eval.InputError naming the
// file, never a panic.
//
//	go test -run x -fuzz FuzzLoadSnapshot ./internal/cli
func FuzzLoadSnapshot(f *testing.F) {
	for _, s := range []string{
		`{"suite":"s","summary":{"mean":0.5,"runs":3},"dimensions":[{"name":"a","mean":0.5}],"items":[{"item":"x","score":1,"pass":true,"pass_runs":2,"runs":3}]}`,
		`{"items":[{"item":"x","runs":0,"pass_runs":5}]}`, `{"items":[{"id":"x","score":1}]}`,
		"{\"schema_version\":2,\"suite\":\"s\"}\n{\"id\":\"a\",\"score\":1}\n", `{"items":[[1]]}`, `[[[[`, ``, "\xff",
		`{"evalId": "e", "results": {"version": 3, "results": []}}`, "{\"id\": \"c-01\", \"output\": \"x\"}\n", `{"summary": {}, "items": []}`,
		"{\"new\":1,\"schema_version\":3,\"suite\":\"s\"}\n{}\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "snapshot.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := loadSnapshot(path)
		if err != nil {
			wantInputError(t, err, path)
			return
		}
		if b == nil {
			t.Fatal("no snapshot and no error")
		}
	})
}
