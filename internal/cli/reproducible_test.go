package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/report"
)

// With SOURCE_DATE_EPOCH set, two checks of the same inputs give byte-identical reports
// in every format, though the clock moved a day between them; without it the JSON
// differs (its timestamp and run id follow the clock), so the test can fail. --run-id
// alone pins them too.
func TestReportsReproducible(t *testing.T) {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	run := func(env map[string]string, format string, extra ...string) []byte {
		out := filepath.Join(t.TempDir(), "report")
		var stderr bytes.Buffer
		c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr,
			Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return clock },
			GitSHA: func() string { return "0000000" }}
		args := append([]string{"evalgate", "check", "--config", "../../examples/tutor-capstone/evalgate.yaml",
			"--results", "../../examples/tutor-capstone/results/regressed.jsonl", "--baseline", "../../baselines/tutor-capstone.jsonl",
			"--format", format, "--out", out}, extra...)
		if code := c.Main(args); code != gate.ExitFail {
			t.Fatalf("exit %d; want 1 (the regressed example): %s", code, stderr.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	pinned := map[string]string{"SOURCE_DATE_EPOCH": "1767225600"} // 2026-01-01T00:00:00Z
	for _, f := range report.Formats {
		a := run(pinned, f)
		clock = clock.Add(24*time.Hour + 1234567*time.Nanosecond)
		b := run(pinned, f)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: reports differ with SOURCE_DATE_EPOCH set and the clock moved", f)
		}
		if f == report.FormatJSON && !bytes.Contains(a, []byte(`"timestamp_utc": "2026-01-01T00:00:00Z"`)) {
			t.Errorf("json: timestamp is not SOURCE_DATE_EPOCH's:\n%.600s", a)
		}
		c := run(nil, f, "--run-id", "pr-42")
		clock = clock.Add(time.Hour)
		if d := run(nil, f, "--run-id", "pr-42"); !bytes.Equal(c, d) {
			t.Errorf("%s: reports differ with --run-id and the clock moved", f)
		}
	}
	a := run(nil, report.FormatJSON)
	clock = clock.Add(time.Second)
	if bytes.Equal(a, run(nil, report.FormatJSON)) {
		t.Error("json: identical without SOURCE_DATE_EPOCH though the clock moved: the test cannot fail")
	}
	var stderr bytes.Buffer
	c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr,
		Getenv: func(k string) string { return map[string]string{"SOURCE_DATE_EPOCH": "yesterday"}[k] }, Now: time.Now}
	if code := c.Main([]string{"evalgate", "check", "--config", "../../examples/tutor-capstone/evalgate.yaml"}); code != gate.ExitBadInput ||
		!strings.Contains(stderr.String(), `SOURCE_DATE_EPOCH="yesterday"`) {
		t.Errorf("bad SOURCE_DATE_EPOCH: exit %d, %q; want 2 naming it", code, stderr.String())
	}
}

// With SOURCE_DATE_EPOCH set, two baselines of the same runs are byte-identical, with
// the history line and the index written beside them, though the clock moved a day
// between them, as check's reports are; without it the baseline's created_at follows
// the clock, so the test can fail. A bad SOURCE_DATE_EPOCH is refused (exit 2) and
// nothing is written. Before, baseline read the clock whatever SOURCE_DATE_EPOCH said.
func TestBaselineReproducible(t *testing.T) {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ex, err := filepath.Abs("../../examples/tutor-capstone")
	if err != nil {
		t.Fatal(err)
	}
	// run writes the example's baseline from its three release runs into a new folder
	// and returns the folder's files, by name.
	run := func(env map[string]string, want int) map[string][]byte {
		t.Helper()
		dir := t.TempDir()
		var stderr bytes.Buffer
		c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr,
			Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return clock },
			GitSHA: func() string { return "0000000" }}
		args := []string{"evalgate", "baseline", "--config", filepath.Join(ex, "evalgate.yaml"), "--no-judge-check",
			"--results", filepath.Join(ex, "release/run1.jsonl"), "--results", filepath.Join(ex, "release/run2.jsonl"),
			"--results", filepath.Join(ex, "release/run3.jsonl"), "--out", filepath.Join(dir, "tutor.jsonl")}
		if code := c.Main(args); code != want {
			t.Fatalf("exit %d; want %d: %s", code, want, stderr.String())
		}
		files := map[string][]byte{}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = b
		}
		return files
	}
	same := func(a, b map[string][]byte) bool {
		if len(a) != len(b) {
			return false
		}
		for name, data := range a {
			if !bytes.Equal(data, b[name]) {
				return false
			}
		}
		return true
	}
	pinned := map[string]string{"SOURCE_DATE_EPOCH": "1767225600"} // 2026-01-01T00:00:00Z
	a := run(pinned, gate.ExitPass)
	clock = clock.Add(24*time.Hour + 1234567*time.Nanosecond)
	b := run(pinned, gate.ExitPass)
	for _, name := range []string{"tutor.jsonl", "tutor.history.jsonl", "index.json"} {
		if a[name] == nil {
			t.Errorf("no %s written", name)
		}
	}
	if !same(a, b) {
		t.Errorf("baselines differ with SOURCE_DATE_EPOCH set and the clock moved")
	}
	if !bytes.Contains(a["tutor.jsonl"], []byte(`"created_at":"2026-01-01T00:00:00Z"`)) {
		t.Errorf("created_at is not SOURCE_DATE_EPOCH's:\n%.600s", a["tutor.jsonl"])
	}
	c := run(nil, gate.ExitPass)
	clock = clock.Add(time.Second)
	if same(c, run(nil, gate.ExitPass)) {
		t.Error("identical without SOURCE_DATE_EPOCH though the clock moved: the test cannot fail")
	}
	if got := run(map[string]string{"SOURCE_DATE_EPOCH": "yesterday"}, gate.ExitBadInput); len(got) != 0 {
		t.Errorf("a bad SOURCE_DATE_EPOCH wrote %d file(s)", len(got))
	}
}

// check --report (a report already scored, here the whole suite as one shard) records
// --run-id and --code-version as check does from results, and --run-id pins the time:
// two renderings with the clock moved are byte-identical. --settle, its limits and
// --rerun cannot add runs to a saved report: each is refused with exit 2, and no
// report is written. Before, --report dropped --run-id and --code-version (a clock
// hash and the git SHA instead) and ignored --settle and --rerun.
func TestCheckReportHonoursPinsAndRefusesReruns(t *testing.T) {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	dir := t.TempDir()
	cfg := "../../examples/tutor-capstone/evalgate.yaml"
	run := func(want int, args ...string) string {
		t.Helper()
		var stderr bytes.Buffer
		c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Now: func() time.Time { return clock },
			GitSHA: func() string { return "0000000" }}
		if code := c.Main(append([]string{"evalgate"}, args...)); code != want {
			t.Fatalf("evalgate %s: exit %d; want %d: %s", strings.Join(args, " "), code, want, stderr.String())
		}
		return stderr.String()
	}
	saved := filepath.Join(dir, "saved.json")
	run(gate.ExitPass, "score", "--config", cfg, "--results", "../../examples/tutor-capstone/results/regressed.jsonl",
		"--shard", "1/1", "--format", "json", "--out", saved)
	render := func(out string) []byte {
		t.Helper()
		run(gate.ExitFail, "check", "--config", cfg, "--report", saved, "--run-id", "pr-42", "--code-version", "abc123", "--format", "json", "--out", out)
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a := render(filepath.Join(dir, "a.json"))
	clock = clock.Add(24*time.Hour + time.Second)
	if !bytes.Equal(a, render(filepath.Join(dir, "b.json"))) {
		t.Error("check --report --run-id: reports differ with the clock moved")
	}
	for _, want := range []string{`"run_id": "pr-42"`, `"timestamp_utc": "1970-01-01T00:00:00Z"`, `"code_version": "abc123"`} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("check --report: no %s in\n%.800s", want, a)
		}
	}
	for _, extra := range [][]string{{"--settle"}, {"--settle-budget", "3"}, {"--rerun", saved}} {
		out := filepath.Join(dir, "refused.json")
		msg := run(gate.ExitBadInput, append([]string{"check", "--config", cfg, "--report", saved, "--format", "json", "--out", out}, extra...)...)
		if !strings.Contains(msg, "--report re-renders a report already scored, which --rerun and --settle cannot add runs to") {
			t.Errorf("check --report %s: %q; want it refused, saying why", strings.Join(extra, " "), msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("check --report %s wrote a report", strings.Join(extra, " "))
		}
	}
}
