package cli

import (
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

// TestStreamedBaselineMatchesInMemory: `evalgate baseline` over a large release (scored
// as a stream, items written one by one, recorded outputs copied beside the file) writes
// the baseline made in memory: the same header, items and recorded outputs, and a check
// against either gives the same report.
func TestStreamedBaselineMatchesInMemory(t *testing.T) {
	t.Parallel()
	dir := benchDir(t)
	cfg := filepath.Join(dir, "evalgate.yaml")
	recs := benchRecords(1200)
	files := threeRuns(t, dir, recs)
	c := &CLI{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: func(string) string { return "" },
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
	make := func(name string, above int64) *baseline.Baseline {
		out := filepath.Join(dir, "baselines", name)
		if _, _, err := c.MakeBaseline(context.Background(), BaselineOptions{Config: cfg, Results: files, Out: out, StreamAbove: above}); err != nil {
			t.Fatal(err)
		}
		return loadBaseline(t, out)
	}
	if err := os.Mkdir(filepath.Join(dir, "baselines"), 0o755); err != nil {
		t.Fatal(err)
	}
	mem, str := make("mem.jsonl", math.MaxInt64), make("stream.jsonl", -1)
	if str.OutputsFile != "stream.outputs.jsonl.gz" {
		t.Errorf("streamed outputs file %q; want stream.outputs.jsonl.gz", str.OutputsFile)
	}
	byID := func(outs [][]map[string]any) [][]map[string]any {
		for _, run := range outs {
			sort.Slice(run, func(i, j int) bool { return run[i]["id"].(string) < run[j]["id"].(string) })
		}
		return outs
	}
	if diff := cmp.Diff(byID(mem.Outputs), byID(str.Outputs)); diff != "" {
		t.Errorf("recorded outputs differ (-memory +streamed):\n%s", diff)
	}
	mem.Outputs, str.Outputs, mem.OutputsFile, str.OutputsFile = nil, nil, "", ""
	if diff := cmp.Diff(mem, str); diff != "" {
		t.Errorf("baselines differ (-memory +streamed):\n%s", diff)
	}
	if len(mem.Items) != 1200 || mem.Items[5].PassBits == "" || len(mem.Runs) != 3 {
		t.Fatalf("baseline of %d items, pass bits %q, %d runs; want 1200 items, three runs", len(mem.Items), mem.Items[5].PassBits, len(mem.Runs))
	}
	// Under another scoring version the check re-scores each baseline's recorded outputs.
	text, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg2 := filepath.Join(dir, "v2.yaml")
	if err := os.WriteFile(cfg2, []byte(strings.Replace(string(text), "scoringSystem/1.0.0", "scoringSystem/2.0.0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(cfg, b string, held bool) string {
		r := checkHeld(t, CheckOptions{
			CheckPlan: CheckPlan{
				Config:      cfg,
				Results:     files[2:],
				Baseline:    filepath.Join(dir, "baselines", b),
				CodeVersion: "abc",
			},
			CheckEnv: CheckEnv{
				Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
			},
		}, held)
		defer r.Close()
		return jsonAs(t, r, b, "B")
	}
	for _, cf := range []string{cfg, cfg2} {
		want := check(cf, "mem.jsonl", true)
		if diff := cmp.Diff(want, check(cf, "stream.jsonl", true)); diff != "" {
			t.Errorf("%s: checks against the two baselines differ (-memory +streamed):\n%s", cf, diff)
		}
		// Results read from their files as a stream re-score the same.
		if diff := cmp.Diff(want, check(cf, "stream.jsonl", false)); diff != "" {
			t.Errorf("%s: streamed check differs (-memory +streamed):\n%s", cf, diff)
		}
		if rescored := strings.Contains(want, `"rescored": true`); rescored != (cf == cfg2) {
			t.Errorf("%s: rescored %v; want %v", cf, rescored, cf == cfg2)
		}
	}
}

// TestStreamedCheckRescoresWithSuiteFile: a streamed check, whose suite items' fields
// are released once scored, still re-scores a baseline made under another scoring
// version against the suite file's fields, as a check in memory does.
func TestStreamedCheckRescoresWithSuiteFile(t *testing.T) {
	t.Parallel()
	dir := benchDir(t)
	recs := benchRecords(600)
	var suite, results []map[string]any
	for _, r := range recs {
		suite = append(suite, map[string]any{"id": r["id"], "prompt": r["prompt"], "expected_contains": r["expected_contains"]})
		res := map[string]any{}
		for k, v := range r {
			if k != "prompt" && k != "expected_contains" {
				res[k] = v
			}
		}
		results = append(results, res)
	}
	writeJSONL(t, filepath.Join(dir, "suite.jsonl"), suite)
	run := filepath.Join(dir, "run.jsonl")
	writeJSONL(t, run, results)
	text, err := os.ReadFile(filepath.Join(dir, "evalgate.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg1, cfg2 := filepath.Join(dir, "v1.yaml"), filepath.Join(dir, "v2.yaml")
	for p, v := range map[string]string{cfg1: "scoringSystem/1.0.0", cfg2: "scoringSystem/2.0.0"} {
		if err := os.WriteFile(p, []byte("suite: suite.jsonl\n"+strings.Replace(string(text), "scoringSystem/1.0.0", v, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "baselines"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &CLI{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: func(string) string { return "" },
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
	base := filepath.Join(dir, "baselines", "b.json")
	if _, _, err := c.MakeBaseline(context.Background(), BaselineOptions{Config: cfg1, Results: []string{run}, Out: base, StreamAbove: -1}); err != nil {
		t.Fatal(err)
	}
	check := func(held bool) string {
		r := checkHeld(t, CheckOptions{
			CheckPlan: CheckPlan{
				Config:      cfg2,
				Results:     []string{run},
				Baseline:    base,
				CodeVersion: "abc",
			},
			CheckEnv: CheckEnv{
				Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
			},
		}, held)
		defer r.Close()
		return jsonAs(t, r, base, "B")
	}
	want := check(true)
	if !strings.Contains(want, `"rescored": true`) || !strings.Contains(want, `"delta": 0,`) {
		t.Fatalf("in memory: want a re-scored comparison with delta 0:\n%.2000s", want)
	}
	if diff := cmp.Diff(want, check(false)); diff != "" {
		t.Errorf("streamed check differs (-memory +streamed):\n%s", diff)
	}
}

// loadBaseline reads the baseline at path whole, its recorded outputs included.
func loadBaseline(t *testing.T, path string) *baseline.Baseline {
	t.Helper()
	r, err := baseline.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b := r.Header()
	for {
		it, ok, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		b.Items = append(b.Items, it)
	}
	if b.Outputs, err = r.Outputs(); err != nil {
		t.Fatal(err)
	}
	return b
}
