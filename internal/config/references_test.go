package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/safeio"
)

// Every file a config names is read with it from the base commit: a price file the
// PR edits must not change what a run costs under the base gate.
func TestReferencesOf(t *testing.T) {
	data := []byte(`suite: suite.yaml
rubric_tests: tests.yaml
results: [runs/latest.jsonl]
baseline: baselines/tutor.jsonl
pricing:
  file: prices.yaml
scoring:
  dimensions:
    - name: shape
      schema: schemas/answer.json
judges:
  acc:
    template: prompts/acc.txt
    cache_dir: .judge-cache
`)
	got, err := ReferencesOf("evalgate.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	want := References{
		Files:    []string{"suite.yaml", "tests.yaml", "schemas/answer.json", "prices.yaml", "prompts/acc.txt"},
		Schemas:  []string{"schemas/answer.json"},
		Dirs:     []string{".judge-cache"},
		Results:  []string{"runs/latest.jsonl"},
		Baseline: "baselines/tutor.jsonl",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}
}

// TestReferencesOfDecoderPanic: goccy/go-yaml's decoder panics on a tag before a scalar
// on the next line where a list is wanted (results); the action reads a pull request's
// config with ReferencesOf first, so that is bad input naming the file and line, not a
// crash.
func TestReferencesOfDecoderPanic(t *testing.T) {
	_, err := ReferencesOf("evalgate.yaml", []byte("results: !!str\n  x\n"))
	if ie := (*safeio.InputError)(nil); !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "evalgate.yaml:1: cannot decode this YAML") {
		t.Fatalf("error %v; want an input error naming evalgate.yaml:1", err)
	}
}
