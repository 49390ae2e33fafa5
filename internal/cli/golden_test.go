package cli_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/report"
)

// update rewrites the golden files: go test ./internal/cli -run Golden -update
var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenNow is the fixed clock of every golden report.
var goldenNow = time.Date(2025, 6, 12, 9, 30, 0, 0, time.UTC)

// goldenCase is one shipped example checked in-process. Paths are relative to this
// package's directory, so the goldens do not depend on where the repository lives.
type goldenCase struct {
	name     string
	config   string
	results  []string // empty: the config's
	baseline string   // empty: the config's
}

// options check the example as the goldens show it: at goldenNow, code version 0000000.
func (c goldenCase) options() cli.CheckOptions {
	return cli.CheckOptions{
		CheckPlan: cli.CheckPlan{Config: c.config, Results: c.results, Baseline: c.baseline, CodeVersion: "0000000"},
		CheckEnv:  cli.CheckEnv{Now: goldenNow},
	}
}

var goldenCases = []goldenCase{
	// Seed 000 against the project's own baseline: the PR run (passes with a warning),
	// a regressed run (blocked by the regression gate) and an improved one.
	{name: "tutor-capstone-pr", config: "../../examples/tutor-capstone/evalgate.yaml",
		results: []string{"../../examples/tutor-capstone/results/pr.jsonl"}, baseline: "../../baselines/tutor-capstone.jsonl"},
	{name: "tutor-capstone-regressed", config: "../../examples/tutor-capstone/evalgate.yaml",
		results: []string{"../../examples/tutor-capstone/results/regressed.jsonl"}, baseline: "../../baselines/tutor-capstone.jsonl"},
	{name: "tutor-capstone-improved", config: "../../examples/tutor-capstone/evalgate.yaml",
		results: []string{"../../examples/tutor-capstone/results/improved.jsonl"}, baseline: "../../baselines/tutor-capstone.jsonl"},
	// Seed 001: three runs, not release-ready (pass rate and faithfulness gates fail).
	{name: "release-readiness", config: "../../examples/release-readiness/evalgate.yaml"},
	// Seed 003: ceilings and the safety veto (REJECTED).
	{name: "council-rubric", config: "../../examples/council-rubric/evalgate.yaml"},
	// Seed 004: native grade, tier trim A → B, n/a, stale and a pending item.
	{name: "flowmcp-grading", config: "../../examples/flowmcp-grading/evalgate.yaml"},
}

// TestGolden renders every example in every format and compares it with
// testdata/golden/<name>.<format>: a change in what people read shows up as a diff.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, err := cli.Check(context.Background(), c.options())
			if err != nil {
				t.Fatalf("check: %v", err)
			}
			// Without `environment:` in the config the report records GOOS/GOARCH; pin it
			// so the goldens are the same on every machine.
			if r.Metadata.Environment == runtime.GOOS+"/"+runtime.GOARCH {
				r.Metadata.Environment = "golden/test"
			}
			for _, format := range report.Formats {
				t.Run(format, func(t *testing.T) {
					var buf bytes.Buffer
					if err := report.Render(&buf, r, format); err != nil {
						t.Fatalf("render: %v", err)
					}
					compareGolden(t, filepath.Join("testdata", "golden", c.name+"."+format), buf.Bytes())
				})
			}
		})
	}
}

// TestGoldenDeterministic checks a report twice: identical inputs give identical bytes
// (the bootstrap is seeded), which is what makes goldens possible at all.
func TestGoldenDeterministic(t *testing.T) {
	c := goldenCases[1]
	render := func() []byte {
		r, err := cli.Check(context.Background(), c.options())
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := report.Render(&buf, r, report.FormatJSON); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if diff := cmp.Diff(string(render()), string(render())); diff != "" {
		t.Errorf("two checks of the same inputs differ (-first +second):\n%s", diff)
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./internal/cli -run Golden -update` to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got); if the change is intended, run `go test ./internal/cli -run Golden -update`:\n%s", path, diff)
	}
}
