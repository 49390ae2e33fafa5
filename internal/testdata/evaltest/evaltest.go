// Package evaltest builds scored runs from text for tests: a config written to a
// temporary directory (so relative paths such as a JSON Schema resolve), a YAML suite
// and one JSONL results text per run. Only tests import it.
package evaltest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// Config writes evalgate.yaml (and any extra files, name then content) into a temporary
// directory and loads it.
func Config(t testing.TB, yml string, files ...string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i+1 < len(files); i += 2 {
		if err := os.WriteFile(filepath.Join(dir, files[i]), []byte(files[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "evalgate.yaml")
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, nil)
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

// Score parses a YAML suite and one JSONL results text per run, and scores them.
func Score(t testing.TB, cfg *config.Config, suiteYAML string, runs ...string) *rubric.Scored {
	t.Helper()
	suite, err := eval.ParseSuite("suite.yaml", []byte(suiteYAML))
	if err != nil {
		t.Fatalf("suite: %v", err)
	}
	var rs []*eval.Run
	for i, text := range runs {
		run, err := eval.ReadRun(fmt.Sprintf("run%d.jsonl", i+1), strings.NewReader(text))
		if err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		rs = append(rs, run)
	}
	sc, err := rubric.Score(context.Background(), &cfg.Scoring, suite, rs)
	if err != nil {
		t.Fatalf("score: %v", err)
	}
	return sc
}
