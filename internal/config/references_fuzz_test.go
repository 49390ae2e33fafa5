package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
)

// FuzzReferencesOf: the action reads a pull request's config with ReferencesOf before
// anything else (to copy the files it names out of a commit): any bytes give the paths
// or an error, never a panic, and never an empty path to copy.
func FuzzReferencesOf(f *testing.F) {
	seeds, _ := filepath.Glob("../../examples/*/evalgate.yaml")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "suite: [1]\n", "rubric_tests: {a: 1}\n", "judges: {j: {template: seed001, cache_dir: ../../x}}\n",
		"judges: [1]\n", "calibration: {outputs: [{a: 1}]}\n", "scoring: {dimensions: [{schema: 7}]}\n",
		"a: &a [*a]\n", "pricing: {file: /etc/passwd}\n", "results: x\n",
		"results: !!str\n  x\n", // the decoder panicked on it
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		refs, err := config.ReferencesOf("evalgate.yaml", data)
		if err != nil {
			return
		}
		for _, p := range append(append([]string(nil), refs.Files...), refs.Dirs...) {
			if p == "" {
				t.Fatalf("ReferencesOf(%q) names an empty path: %+v", data, refs)
			}
		}
	})
}
