package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/report"
)

// A check that settles is reproducible too: with SOURCE_DATE_EPOCH set, two
// `check --settle` runs over the same inputs give byte-identical reports in every
// format, though the clock moves a day between them and ticks during each (so
// settle's wall-clock time would differ; its limit is a day, as the clock runs fast).
// The system under test is the newcomer's deterministic bot (an exec `run:` block), so
// the re-runs' outputs are the same.
func TestSettleReportsReproducible(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var suite strings.Builder
	suite.WriteString("name: support-bot\nitems:\n")
	for _, id := range []string{"refund window", "shipping time", "order status", "cancel order", "change address", "gift card", "warranty", "contact hours"} {
		fmt.Fprintf(&suite, "  - {id: %q, prompt: \"about %s\", expected_contains: [\"fact for %s\"]}\n", id, id, id)
	}
	write(t, "suite.yaml", suite.String())
	write(t, "system.sh", `if [ -f broken ] && [ "$EVALGATE_ITEM_ID" = "refund window" ]; then
  echo "the window is 14 days, thanks"
else
  echo "fact for $EVALGATE_ITEM_ID, thanks"
fi
`)
	write(t, "evalgate.yaml", `name: support-bot
suite: suite.yaml
baseline: baseline.jsonl
run:
  exec: {command: [sh, system.sh]}
settle: {timeout: 24h}
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: fact, weight: 0.5, scorer: contains}
    - {name: tone, weight: 0.5, scorer: regex, pattern: "thanks"}
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: 0.02}
`)
	var mu sync.Mutex
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	step := time.Duration(0)
	tick := func() time.Time { // every reading moves the clock on, by more each time
		mu.Lock()
		defer mu.Unlock()
		step += 1300 * time.Millisecond
		clock = clock.Add(step)
		return clock
	}
	run := func(env map[string]string, want int, args ...string) {
		t.Helper()
		var stderr bytes.Buffer
		c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr,
			Getenv: func(k string) string { return env[k] }, Now: tick, GitSHA: func() string { return "0000000" }}
		if code := c.Main(append([]string{"evalgate"}, args...)); code != want {
			t.Fatalf("evalgate %s: exit %d, want %d: %s", strings.Join(args, " "), code, want, stderr.String())
		}
	}
	run(nil, gate.ExitPass, "run", "--runs", "3", "--out-dir", "base")
	run(nil, gate.ExitPass, "baseline", "--results", "base/run1.jsonl", "--results", "base/run2.jsonl", "--results", "base/run3.jsonl")
	write(t, "broken", "")
	run(nil, gate.ExitPass, "run", "--out", "pr.jsonl")

	settledIn := func(env map[string]string, format string, dir ...string) []byte {
		t.Helper()
		if err := os.RemoveAll("settled"); err != nil {
			t.Fatal(err)
		}
		args := []string{"check", "--results", "pr.jsonl", "--settle", "--settle-budget", "8"}
		if len(dir) > 0 {
			args = append(args, "--settle-dir", dir[0])
		}
		run(env, gate.ExitFail, append(args, "--format", format, "--out", "report")...)
		b, err := os.ReadFile("report")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	settled := func(env map[string]string, format string) []byte { return settledIn(env, format, "settled") }
	pinned := map[string]string{"SOURCE_DATE_EPOCH": "1767225600"}
	for _, f := range report.Formats {
		a := settled(pinned, f)
		clock = clock.Add(24 * time.Hour)
		if b := settled(pinned, f); !bytes.Equal(a, b) {
			t.Errorf("%s: reports differ with SOURCE_DATE_EPOCH set and the clock moved:\n%s", f, firstDiff(a, b))
		}
		if f == report.FormatJSON && !bytes.Contains(a, []byte(`"rounds"`)) {
			t.Errorf("json: no settle rounds; the case must settle:\n%.800s", a)
		}
	}
	// Without --settle-dir the re-runs go to a temporary folder, whose name is in the
	// report: pinned, it is named by the inputs, so the report is still the same.
	for _, f := range []string{report.FormatJSON, report.FormatMarkdown} {
		if a, b := settledIn(pinned, f), settledIn(pinned, f); !bytes.Equal(a, b) {
			t.Errorf("%s without --settle-dir: reports differ with SOURCE_DATE_EPOCH set:\n%s", f, firstDiff(a, b))
		}
	}
	// The same project in another checkout (another folder) writes the same report: the
	// default folder is named relative to the working folder, not by its path.
	first := settledIn(pinned, report.FormatMarkdown)
	other := t.TempDir()
	files, err := filepath.Glob("*") // the project, its baseline and history, the results
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(other, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(other)
	if second := settledIn(pinned, report.FormatMarkdown); !bytes.Equal(first, second) {
		t.Errorf("markdown in another checkout: reports differ with SOURCE_DATE_EPOCH set:\n%s", firstDiff(first, second))
	}
	if !bytes.Contains(first, []byte(".evalgate/settle/pinned-")) {
		t.Errorf("the report does not name the pinned folder in the working folder:\n%.1500s", first)
	}
	// Without SOURCE_DATE_EPOCH settle's wall-clock time is in the report (and its
	// timestamp follows the clock): the test can fail.
	if a, b := settled(nil, report.FormatJSON), settled(nil, report.FormatJSON); bytes.Equal(a, b) {
		t.Error("json: identical without SOURCE_DATE_EPOCH though the clock moved: the test cannot fail")
	}
}

// firstDiff is the first line where a and b differ, for a failure message.
func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  %.300s\n  %.300s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(la), len(lb))
}
