package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A real improvement's diagnosis (the jump rule) is in the comment's Diagnosis section,
// outside the statistics <details>, so it names no interval: the figures are in the
// statistics. 20 items; the baseline's 3 runs fail items 0–4 every time (score 0.75),
// the pull request's 3 runs pass all 20 (1.00): +25 pts, far beyond the noise.
func TestCommentJumpFindingSaysNoStatistics(t *testing.T) {
	dir := t.TempDir()
	var suite strings.Builder
	for i := range 20 {
		fmt.Fprintf(&suite, "{\"id\": \"q%02d\", \"prompt\": \"p\", \"expected_contains\": [\"yes\"]}\n", i)
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("suite.jsonl", suite.String())
	write("evalgate.yaml", `name: jump
suite: suite.jsonl
baseline: base.jsonl
scoring:
  version: scoringSystem/1.0.0
  dimensions: [{name: correctness, weight: 1, scorer: contains}]
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: 0.02}
`)
	runs := func(prefix string, failing int) []string {
		var files []string
		for r := 1; r <= 3; r++ {
			var b strings.Builder
			for i := range 20 {
				out := "yes"
				if i < failing {
					out = "no"
				}
				fmt.Fprintf(&b, "{\"id\": \"q%02d\", \"output\": %q}\n", i, out)
			}
			name := fmt.Sprintf("%s%d.jsonl", prefix, r)
			write(name, b.String())
			files = append(files, "--results", name)
		}
		return files
	}
	if code, _, stderr := runMain(t, dir, append([]string{"evalgate", "baseline", "--config", filepath.Join(dir, "evalgate.yaml"), "--out", filepath.Join(dir, "base.jsonl")}, abs(dir, runs("base", 5))...)); code != 0 {
		t.Fatalf("baseline: exit %d: %s", code, stderr)
	}
	code, md, stderr := runMain(t, dir, append([]string{"evalgate", "check", "--config", filepath.Join(dir, "evalgate.yaml"), "--format", "markdown"}, abs(dir, runs("pr", 0))...))
	if code != 0 {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	if !strings.Contains(md, "the score rose +25.0 pts (0.750 → 1.000)") {
		t.Fatalf("no jump finding:\n%s", md)
	}
	stats := regexp.MustCompile(`(?s)\n<details><summary>Statistics: [^\n]*</summary>.*?</details>\n`)
	statText := regexp.MustCompile(`(?i)\binterval\b|\bCI\b|\bp\s*(=|&lt;|<|≥|&gt;)|resolving power|detects drops|\| +z +\|`)
	if m := statText.FindString(stats.ReplaceAllString(md, "\n")); m != "" {
		t.Errorf("%q outside the statistics <details>:\n%s", m, md)
	}
}

// abs makes the paths after each --results absolute under dir.
func abs(dir string, args []string) []string {
	for i := 1; i < len(args); i += 2 {
		args[i] = filepath.Join(dir, args[i])
	}
	return args
}
