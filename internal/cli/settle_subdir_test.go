package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/gate"
)

// A `rerun:` command runs from the config's folder, so its {out} must name the re-run's
// results file wherever the check runs from: with the config in a subfolder and a
// relative --settle-dir (or the pinned default folder), the tool wrote under the
// config's folder and the check looked under its own, and stopped with "wrote no
// results" (exit 2). The tool here writes the broken item's failing answer for every
// id it is given; the broken item fails again in each round and the check blocks.
func TestSettleRerunOutFromAnotherFolder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("proj", 0o755); err != nil {
		t.Fatal(err)
	}
	var suite strings.Builder
	suite.WriteString("name: bot\nitems:\n")
	for _, id := range []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"} {
		fmt.Fprintf(&suite, "  - {id: %q, prompt: \"about %s\", expected_contains: [\"fact %s\"]}\n", id, id, id)
	}
	write(t, "proj/suite.yaml", suite.String())
	write(t, "proj/system.sh", `if [ -f broken ] && [ "$EVALGATE_ITEM_ID" = "a1" ]; then echo "wrong"; else echo "fact $EVALGATE_ITEM_ID"; fi
`)
	// The re-run tool: every argument but the last is an id; the last is {out}.
	write(t, "proj/rerun.sh", `out=""; for a in "$@"; do out="$a"; done
: > "$out"
for a in "$@"; do [ "$a" = "$out" ] || printf '{"id": "%s", "output": "wrong"}\n' "$a" >> "$out"; done
`)
	write(t, "proj/evalgate.yaml", `name: bot
suite: suite.yaml
baseline: baseline.jsonl
run:
  exec: {command: [sh, system.sh]}
rerun: [sh, rerun.sh, "{ids}", "{out}"]
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: fact, weight: 1, scorer: contains}
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: 0.02}
`)
	run := func(env map[string]string, want int, args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(k string) string { return env[k] }, Now: time.Now, GitSHA: func() string { return "0000000" }}
		if code := c.Main(append([]string{"evalgate"}, args...)); code != want {
			t.Fatalf("evalgate %s: exit %d, want %d: %s%s", strings.Join(args, " "), code, want, stdout.String(), stderr.String())
		}
		return stdout.String() + stderr.String()
	}
	t.Chdir(filepath.Join(dir, "proj"))
	run(nil, gate.ExitPass, "run", "--runs", "3", "--out-dir", "base")
	run(nil, gate.ExitPass, "baseline", "--results", "base/run1.jsonl", "--results", "base/run2.jsonl", "--results", "base/run3.jsonl")
	write(t, "broken", "")
	run(nil, gate.ExitPass, "run", "--out", "pr.jsonl")
	t.Chdir(dir)

	cfg := filepath.Join("proj", "evalgate.yaml")
	out := run(nil, gate.ExitFail, "check", "--config", cfg, "--results", "proj/pr.jsonl", "--settle", "--settle-dir", "settled")
	if !strings.Contains(out, "settle: fail after") {
		t.Errorf("no settle summary:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join("settled", "rerun1")); err != nil {
		t.Errorf("the first round's results are not in ./settled: %v", err)
	}
	// The pinned default folder (.evalgate/settle/… in the working folder) too.
	run(map[string]string{"SOURCE_DATE_EPOCH": "1767225600"}, gate.ExitFail, "check", "--config", cfg, "--results", "proj/pr.jsonl", "--settle")
}
