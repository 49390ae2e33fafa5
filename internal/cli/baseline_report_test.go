package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/eval"
)

// TestBaselineFromMergedReport: `evalgate baseline --report` over the merged report of
// four shards (or over the shards' partial reports) writes the baseline that
// `evalgate baseline --results` writes over the same three runs, apart from the
// recorded outputs it cannot keep; a check against it gives the same report. Under
// another scoring version it cannot re-score, and says to refresh it.
func TestBaselineFromMergedReport(t *testing.T) {
	t.Parallel()
	dir := benchDir(t)
	cfg := filepath.Join(dir, "evalgate.yaml")
	recs := benchRecords(900)
	files := threeRuns(t, dir, recs)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var shards []string
	for k := 1; k <= 4; k++ {
		r, err := Check(context.Background(), CheckOptions{
			CheckPlan: CheckPlan{
				Config:      cfg,
				Results:     files,
				NoBaseline:  true,
				CodeVersion: "abc",
				Shard:       eval.Shard{Index: k, Count: 4},
			},
			CheckEnv: CheckEnv{
				Now: now,
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("shard%d.json", k))
		if err := saveReport(r, "json", p); err != nil {
			t.Fatal(err)
		}
		r.Close()
		shards = append(shards, p)
	}
	merged := filepath.Join(dir, "merged.json")
	mr, err := checkReports(context.Background(), CheckOptions{CheckPlan: CheckPlan{Config: cfg, NoBaseline: true, CodeVersion: "abc"}, CheckEnv: CheckEnv{Now: now}}, shards)
	if err != nil {
		t.Fatal(err)
	}
	if err := saveReport(mr, "json", merged); err != nil {
		t.Fatal(err)
	}
	mr.Close()

	var stderr bytes.Buffer
	c := &CLI{Stdout: &bytes.Buffer{}, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: func() time.Time { return now }}
	make := func(name string, o BaselineOptions) *baseline.Baseline {
		o.Config, o.Out, o.SHA = cfg, filepath.Join(dir, name, "base.jsonl"), "abc"
		if _, _, err := c.MakeBaseline(context.Background(), o); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return loadBaseline(t, o.Out)
	}
	want := make("results", BaselineOptions{Results: files, StreamAbove: -1})
	if want.OutputsFile == "" || len(want.Outputs) != 3 {
		t.Fatalf("the baseline from results keeps no recorded outputs (%q, %d runs)", want.OutputsFile, len(want.Outputs))
	}
	want.OutputsFile, want.Outputs = "", nil
	for _, tc := range []struct {
		name    string
		reports []string
	}{{"merged", []string{merged}}, {"shards", shards}} {
		got := make(tc.name, BaselineOptions{Reports: tc.reports})
		if got.OutputsFile != "" || len(got.Outputs) != 0 {
			t.Errorf("%s: the baseline names recorded outputs it does not have", tc.name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: baseline from reports differs from the one from results (-results +reports):\n%s", tc.name, diff)
		}
		check := func(base string) string {
			r, err := Check(context.Background(), CheckOptions{CheckPlan: CheckPlan{Config: cfg, Results: files[2:], Baseline: base, CodeVersion: "abc"}, CheckEnv: CheckEnv{Now: now}})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			return jsonAs(t, r, base, "B")
		}
		if diff := cmp.Diff(check(filepath.Join(dir, "results", "base.jsonl")), check(filepath.Join(dir, tc.name, "base.jsonl"))); diff != "" {
			t.Errorf("%s: checks against the two baselines differ (-results +reports):\n%s", tc.name, diff)
		}
	}

	// Under another scoring version there is nothing to re-score: a clear error.
	text, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg2 := filepath.Join(dir, "v2.yaml")
	if err := os.WriteFile(cfg2, []byte(strings.Replace(string(text), "scoringSystem/1.0.0", "scoringSystem/2.0.0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Check(context.Background(), CheckOptions{CheckPlan: CheckPlan{Config: cfg2, Results: files[2:], Baseline: filepath.Join(dir, "merged", "base.jsonl")}, CheckEnv: CheckEnv{Now: now}})
	if err == nil || !strings.Contains(err.Error(), "carries no recorded outputs to re-score") {
		t.Errorf("check under a new scoring version against a baseline from reports: %v; want the no-recorded-outputs error", err)
	}

	// The command line: --report, and --report with --results refused.
	var out, errb bytes.Buffer
	cl := &CLI{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Now: func() time.Time { return now }}
	if code := cl.Main([]string{"evalgate", "baseline", "--config", cfg, "--report", merged, "--out", filepath.Join(dir, "cmd", "base.jsonl")}); code != ExitPass {
		t.Errorf("baseline --report: exit %d\n%s", code, errb.String())
	}
	errb.Reset()
	if code := cl.Main([]string{"evalgate", "baseline", "--config", cfg, "--report", merged, "--results", files[0]}); code != ExitBadInput || !strings.Contains(errb.String(), "drop --results") {
		t.Errorf("baseline --report --results: exit %d, %q; want 2 and a message", code, errb.String())
	}
}
