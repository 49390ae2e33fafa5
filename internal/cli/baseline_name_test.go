package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/baseline"
)

// A refresh of a baseline the config names by its old name (x.json) writes x.jsonl,
// removes x.json and says so; a report kept in the baselines folder is not taken for a
// baseline (the index used to read every *.json there and failed on it); and the next
// check, with the config still naming x.json, compares with x.jsonl and notes it.
func TestBaselineRefreshKeepsTheOldName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "examples", "tutor-capstone"))); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "evalgate.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	const named = "baseline: ../../baselines/tutor-capstone.jsonl"
	if !strings.Contains(string(cfg), named) {
		t.Fatalf("the tutor example no longer says %q", named)
	}
	cfg = []byte(strings.Replace(string(cfg), named, "baseline: baselines/tutor.json", 1))
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	bdir := filepath.Join(dir, "baselines")
	if err := os.Mkdir(bdir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile := func(src, dst string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The old baseline under its old name, and a saved report beside it.
	copyFile(filepath.Join("..", "..", "baselines", "tutor-capstone.jsonl"), filepath.Join(bdir, "tutor.json"))
	copyFile(filepath.Join("testdata", "golden", "council-rubric.json"), filepath.Join(bdir, "report.json"))

	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	var runs []string
	for i := 1; i <= 3; i++ {
		runs = append(runs, "--results", filepath.Join(dir, "release", "run"+string(rune('0'+i))+".jsonl"))
	}
	out := filepath.Join(bdir, "tutor.json")
	stdout, stderr, code := runCLI(t, now, append([]string{"baseline", "--config", cfgPath, "--out", out, "--quiet", "--no-judge-check"}, runs...)...)
	if code != ExitPass {
		t.Fatalf("baseline: exit %d\n%s%s", code, stdout, stderr)
	}
	newPath := filepath.Join(bdir, "tutor.jsonl")
	if !strings.HasPrefix(stdout, "wrote "+newPath+":") {
		t.Errorf("stdout %q; want it to name %s", stdout, newPath)
	}
	if !strings.Contains(stderr, "removed "+out+": the baseline is JSON Lines, now written as "+newPath) {
		t.Errorf("stderr %q; want it to say the old file was removed", stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the old baseline %s is still there (%v)", out, err)
	}
	if ok, err := baseline.IsBaselineFile(newPath); !ok || err != nil {
		t.Errorf("%s is not a baseline: %v", newPath, err)
	}
	data, err := os.ReadFile(filepath.Join(bdir, baseline.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	var idx baseline.Index
	if err := json.Unmarshal(data, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Suites) != 1 || idx.Suites[0].File != "tutor.jsonl" {
		t.Errorf("index %+v; want only tutor.jsonl (the report is not a baseline)", idx.Suites)
	}

	// The config still names tutor.json: the check finds tutor.jsonl and says so.
	stdout, stderr, code = runCLI(t, now, "check", "--config", cfgPath, "--format", "markdown", "--quiet")
	if code != ExitPass {
		t.Fatalf("check: exit %d\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "no baseline") || !strings.Contains(stdout, "is now") || !strings.Contains(stdout, "tutor.jsonl") {
		t.Errorf("check against a config naming the old file: want a comparison with tutor.jsonl and a notice; got\n%s", stdout)
	}
}

// `baseline --out x.json` writes x.jsonl (a baseline is JSON Lines) and says on stderr,
// as it writes, which file it wrote and why, rather than leaving the rename to be found
// by the next check's notice.
func TestBaselineOutJSONSaysItWroteJSONL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "examples", "tutor-capstone"))); err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	out := filepath.Join(dir, "baseline.json")
	args := []string{"baseline", "--config", filepath.Join(dir, "evalgate.yaml"), "--out", out, "--quiet", "--no-judge-check"}
	for i := 1; i <= 3; i++ {
		args = append(args, filepath.Join(dir, "release", "run"+string(rune('0'+i))+".jsonl"))
	}
	stdout, stderr, code := runCLI(t, now, args...)
	if code != ExitPass {
		t.Fatalf("baseline: exit %d\n%s%s", code, stdout, stderr)
	}
	written := out + "l"
	want := "wrote the baseline to " + written + ", not " + out + ": a baseline is JSON Lines, so it is written as .jsonl"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr %q; want %q", stderr, want)
	}
	if _, err := os.Stat(written); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s exists (%v); only %s should", out, err, written)
	}
	// Asked for by its own name, nothing more is said.
	args[4] = written
	if _, stderr, code = runCLI(t, now, args...); code != ExitPass || strings.Contains(stderr, "not "+written) || strings.Contains(stderr, "JSON Lines") {
		t.Errorf("baseline --out %s: exit %d, stderr %q", written, code, stderr)
	}
}
