package baseline_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/baseline"
)

func TestFileNames(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"baselines/x.json":  "baselines/x.jsonl",
		"baselines/x.jsonl": "baselines/x.jsonl",
		"x.baseline":        "x.baseline",
	} {
		if got := baseline.FileName(in); got != want {
			t.Errorf("FileName(%q) = %q; want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"a/x.json": "a/x.jsonl", "a/x.jsonl": "a/x.json", "a/x.txt": ""} {
		if got := baseline.OtherName(in); got != want {
			t.Errorf("OtherName(%q) = %q; want %q", in, got, want)
		}
	}
	if got := baseline.OutputsName("a/x.jsonl"); got != "x.outputs.jsonl.gz" {
		t.Errorf("OutputsName(x.jsonl) = %q; the outputs keep the stem", got)
	}
}

// A config may name either X.json or X.jsonl: the other is read when the named one is
// missing, and X.jsonl (what `evalgate baseline` writes) when both exist.
func TestFindEitherName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, ask string
		files     []string
		want      string
		notice    string // a substring; "" means no notice
	}{
		{"only the new name", "x.json", []string{"x.jsonl"}, "x.jsonl", "is now"},
		{"only the old name", "x.jsonl", []string{"x.json"}, "x.json", "does not exist; reading"},
		{"both, asked for the old", "x.json", []string{"x.json", "x.jsonl"}, "x.jsonl", "has a newer name"},
		{"both, asked for the new", "x.jsonl", []string{"x.json", "x.jsonl"}, "x.jsonl", ""},
		{"the named one", "x.json", []string{"x.json"}, "x.json", ""},
		{"neither", "x.json", nil, "x.json", ""},
		{"another extension", "x.yaml", []string{"x.jsonl"}, "x.yaml", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for _, f := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte("{}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, notice := baseline.Find(filepath.Join(dir, tt.ask))
			if got != filepath.Join(dir, tt.want) {
				t.Errorf("Find(%s) = %s; want %s", tt.ask, filepath.Base(got), tt.want)
			}
			if (tt.notice == "") != (notice == "") || !strings.Contains(notice, tt.notice) {
				t.Errorf("notice %q; want one containing %q", notice, tt.notice)
			}
		})
	}
}

// A baseline is known by its header: a report (same first four keys), a history file,
// a results file or an index are not baselines, whatever their names.
func TestIsBaselineFileByHeader(t *testing.T) {
	t.Parallel()
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	b := baseline.FromScored(score(t, cfg, suite, runOf(t, "base", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 0.8, "e": 0.95}, ids...)),
		baseline.Options{Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	dir := t.TempDir()
	v2 := filepath.Join(dir, "v2.report") // any name
	if err := baseline.Save(v2, b); err != nil {
		t.Fatal(err)
	}
	// A version 1 baseline: one indented object of Baseline's fields.
	b1 := *b
	b1.SchemaVersion = 1
	v1data, err := json.MarshalIndent(&b1, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v1 := write("v1.json", string(v1data))
	report, err := os.ReadFile(filepath.Join("..", "cli", "testdata", "golden", "council-rubric.json"))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		v2: true,
		v1: true,
		filepath.Join("..", "..", "baselines", "tutor-capstone.jsonl"):                             true,
		write("report.json", string(report)):                                                       false,
		write("x.history.jsonl", `{"release":"v1","date":"2026-01-01T00:00:00Z","mean":0.9}`+"\n"): false,
		write("run.jsonl", `{"id":"a","output":"x"}`+"\n"):                                         false,
		write("index.json", `{"schema_version":1,"suites":[]}`):                                    false,
		write("empty.json", ""):                                                                    false,
		write("junk.json", "not json"):                                                             false,
		// The first keys of a baseline, then one no baseline has.
		write("lookalike.json", `{"schema_version":2,"suite":"s","scoringSystem":"x","evalId":"e","source":{}}`): false,
	} {
		got, err := baseline.IsBaselineFile(path)
		if err != nil || got != want {
			t.Errorf("IsBaselineFile(%s) = %v, %v; want %v", filepath.Base(path), got, err, want)
		}
	}
	if _, err := baseline.IsBaselineFile(filepath.Join(dir, "missing.jsonl")); err == nil {
		t.Error("a missing file: no error")
	}
}

// The index lists the baselines of a directory, read by their headers: a report, runs
// and history files beside them are not baselines and are left out, not an error.
func TestIndexSkipsFilesThatAreNotBaselines(t *testing.T) {
	t.Parallel()
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	b := baseline.FromScored(score(t, cfg, suite, runOf(t, "base", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 0.8, "e": 0.95}, ids...)),
		baseline.Options{Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	b.Suite = "s"
	dir := t.TempDir()
	if err := baseline.Save(filepath.Join(dir, "s.jsonl"), b); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join("..", "cli", "testdata", "golden", "council-rubric.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"report.json":     string(report),
		"run1.jsonl":      `{"id":"a","output":"x"}` + "\n",
		"s.history.jsonl": `{"release":"v1","date":"2026-01-01T00:00:00Z","mean":0.9}` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := baseline.UpdateIndex(dir); err != nil {
		t.Fatalf("UpdateIndex with a report beside the baseline: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, baseline.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	var idx baseline.Index
	if err := json.Unmarshal(data, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Suites) != 1 || idx.Suites[0].File != "s.jsonl" || idx.Suites[0].Suite != "s" {
		t.Errorf("index %+v; want the one baseline s.jsonl", idx.Suites)
	}
}
