package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
)

// A price file the config names but that is not there is an error naming it once as
// a price file. Before: "cannot read price file file: no such file or directory".
func TestMissingPriceFile(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "evalgate.yaml")
	if err := os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte("items:\n  - {id: a, prompt: p, expected: e}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(`suite: suite.yaml
pricing: {file: prices/negotiated.yaml}
scoring:
  version: scoringSystem/1.0.0
  dimensions: [{name: c, weight: 1, scorer: contains}]
grading:
  version: gradingSystem/1.0.0
`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := config.Load(cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "negotiated.yaml: cannot read price file: ") || strings.Contains(err.Error(), "file file") {
		t.Errorf("error %v; want it to name negotiated.yaml and say it cannot read the price file", err)
	}
}
