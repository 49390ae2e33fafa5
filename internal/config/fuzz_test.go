package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
)

// FuzzParseConfig: any bytes give a config or an *eval.InputError naming the file, never
// a panic. The config sits in a temp dir holding the JSON Schemas the examples name, so
// relative schema paths resolve and the json_schema scorer is built too.
//
//	go test -run x -fuzz FuzzParseConfig -fuzztime 30s ./internal/config
func FuzzParseConfig(f *testing.F) {
	seeds, _ := filepath.Glob("../../examples/*/evalgate.yaml")
	bad, _ := filepath.Glob("../cli/testdata/bad/*/evalgate.yaml")
	seeds = append(append(seeds, "../../evalgate.yaml", "../../bench/evalgate.yaml"), bad...)
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"", "\uFEFFname: x\n", "name: \xff\n", "scoring: {}\ngrading: {}\n", "[]\n", "---\n---\n",
		"scoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - {name: a, weight: 1, scorer: regex, pattern: \"(\"}\ngrading: {version: gradingSystem/1.0.0}\n",
		"scoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - {name: a, weight: .nan, scorer: exact}\ngrading: {version: gradingSystem/1.0.0}\n",
		"scoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - {name: a, weight: 1, scorer: recorded, scale: 1-5}\n  ceilings: [{dimension: a, below: 3, cap: 0.4}]\n  vetoes: [{dimension: b, cap: 0}]\ngrading: {version: gradingSystem/1.0.0, grades: {tier: autonomous, veto: [a]}}\n",
		"scoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - {name: a, weight: 1, scorer: llm_judge, judge: j}\njudges: {j: {model: m, template: seed003}}\ngrading: {version: gradingSystem/1.0.0}\n",
		"grading:\n  version: gradingSystem/1.0.0\n  regression: {max_drop: 2, mode: relative, dimensions: {x: 0.1}}\n",
		"a: &a [*a]\n",
		"scoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - {name: a, weight: 1, scorer: llm_judge, key: accuracy_score, scale: 0-2}\njudges: {j: {model: m}}\ngrading: {version: gradingSystem/1.0.0}\ncalibration:\n  min_alpha: {a: 0.8}\n  outputs:\n    - {name: o, item: {prompt: p}, output: x, labels: {a: [2, 1, n/a]}}\n",
		"a: &a0 [x]\nb: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]\nc: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]\nd: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]\ne: &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]\nf: [*a4]\n",
		"metadata: " + strings.Repeat("{a: ", 1001) + strings.Repeat("}", 1001) + "\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	schema, err := os.ReadFile("../../examples/tutor-capstone/schema.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range []string{"schema.json", "examples/tutor-capstone/schema.json"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(full, schema, 0o644); err != nil {
			f.Fatal(err)
		}
	}
	path := filepath.Join(dir, "evalgate.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := config.Parse(path, data, nil)
		if err != nil {
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
			return
		}
		if !cfg.Scoring.Built() {
			t.Fatal("config accepted with a scoring system that is not built")
		}
		sum := 0.0
		for _, d := range cfg.Scoring.Dimensions {
			sum += d.Weight
		}
		if sum < 0.999 || sum > 1.001 {
			t.Fatalf("config accepted with weights summing to %v", sum)
		}
		_ = cfg.Scoring.MetricNames()
		_ = cfg.Scoring.Hash()
	})
}
