package cli

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/baseline"
)

// TestStreamedImportedBaselineMatchesInMemory: `evalgate baseline` over a large file
// another tool wrote (a promptfoo --repeat 3 export) reads it as it is decoded and streams
// it like evalgate's own files: the baseline, its items and its recorded outputs (all
// three runs, written as the file is read) are the ones made in memory, the runs' files
// are gone afterwards, and the three runs count as such (no thin-baseline warning, which
// a count taken before the read would give).
func TestStreamedImportedBaselineMatchesInMemory(t *testing.T) {
	dir := t.TempDir()
	pf, cfg := promptfooExample(t, dir)
	if err := os.Mkdir(filepath.Join(dir, "baselines"), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir() // the conversions' directory: empty once each baseline is written
	t.Setenv("TMPDIR", tmp)
	var stderr bytes.Buffer
	c := &CLI{Stdout: os.Stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
	make := func(name string, above int64) *baseline.Baseline {
		out := filepath.Join(dir, "baselines", name)
		if _, _, err := c.MakeBaseline(context.Background(), BaselineOptions{Config: cfg, Results: []string{pf}, Out: out, StreamAbove: above}); err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("%s: %d converted file(s) left in the temporary directory", name, len(left))
		}
		return loadBaseline(t, out)
	}
	mem, str := make("mem.jsonl", math.MaxInt64), make("stream.jsonl", -1)
	if strings.Contains(stderr.String(), "the baseline has") {
		t.Errorf("a 3-run baseline warned: %s", stderr.String())
	}
	if str.OutputsFile == "" || mem.OutputsFile != "" {
		t.Errorf("outputs file: streamed %q, in memory %q; want the streamed one beside its baseline only", str.OutputsFile, mem.OutputsFile)
	}
	for _, run := range append(mem.Outputs, str.Outputs...) {
		sort.Slice(run, func(i, j int) bool { return run[i]["id"].(string) < run[j]["id"].(string) })
	}
	if len(str.Outputs) != 3 {
		t.Fatalf("streamed baseline records %d runs' outputs; want the export's 3 repeats", len(str.Outputs))
	}
	if diff := cmp.Diff(mem.Outputs, str.Outputs); diff != "" {
		t.Errorf("recorded outputs differ (-memory +streamed):\n%s", diff)
	}
	mem.Outputs, str.Outputs, mem.OutputsFile, str.OutputsFile = nil, nil, "", ""
	if diff := cmp.Diff(mem, str); diff != "" {
		t.Errorf("baselines differ (-memory +streamed):\n%s", diff)
	}
}

// promptfooExample copies the promptfoo --repeat 3 export of examples/promptfoo into dir
// with a config scoring its recorded scores; it returns both paths.
func promptfooExample(t *testing.T, dir string) (pf, cfg string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "promptfoo", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	pf, cfg = filepath.Join(dir, "results.json"), filepath.Join(dir, "pf.yaml")
	if err := os.WriteFile(pf, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(`name: pf
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: correctness, weight: 0.8, scorer: recorded, scale: unit}
    - {name: pf_score, key: score, weight: 0.2, scorer: recorded, scale: unit}
grading:
  version: gradingSystem/1.0.0
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return pf, cfg
}
