package cli_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/gate"
)

// --settle-timeout stops a `rerun:` command whole: a tool that forks a child which
// outlives it (here a shell waiting on `sleep 60`) is killed with its process group
// when the limit passes, and settle reports "timed out" soon after, instead of
// waiting for the child. The minute's bound below only catches a hang (the settle
// limit is 1 s; before the fix the check waited the full 90 s of the sleep).
func TestSettleTimeoutStopsRerunCommandChildren(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var suite strings.Builder
	suite.WriteString("name: bot\nitems:\n")
	for _, id := range []string{"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"} {
		fmt.Fprintf(&suite, "  - {id: %q, prompt: \"about %s\", expected_contains: [\"fact %s\"]}\n", id, id, id)
	}
	write(t, "suite.yaml", suite.String())
	write(t, "system.sh", `if [ -f broken ] && [ "$EVALGATE_ITEM_ID" = "a1" ]; then echo "wrong"; else echo "fact $EVALGATE_ITEM_ID"; fi
`)
	common := `name: bot
suite: suite.yaml
baseline: baseline.jsonl
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: fact, weight: 1, scorer: contains}
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: 0.02}
`
	write(t, "evalgate.yaml", common+"run:\n  exec: {command: [sh, system.sh]}\n")
	// The tool that re-runs: a shell whose child sleeps 90 s and holds its output.
	write(t, "slow.yaml", common+"rerun: [sh, -c, \"sleep 90 & wait\", rerun, \"{ids}\", \"{out}\"]\n")
	run := func(want int, args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "0000000" }}
		if code := c.Main(append([]string{"evalgate"}, args...)); code != want {
			t.Fatalf("evalgate %s: exit %d, want %d: %s%s", strings.Join(args, " "), code, want, stdout.String(), stderr.String())
		}
		return stdout.String() + stderr.String()
	}
	run(gate.ExitPass, "run", "--runs", "3", "--out-dir", "base")
	run(gate.ExitPass, "baseline", "--results", "base/run1.jsonl", "--results", "base/run2.jsonl", "--results", "base/run3.jsonl")
	write(t, "broken", "")
	run(gate.ExitPass, "run", "--out", "pr.jsonl")

	start := time.Now()
	out := run(gate.ExitPass, "check", "--config", "slow.yaml", "--results", "pr.jsonl", "--settle", "--settle-timeout", "1s")
	if took := time.Since(start); took > time.Minute {
		t.Fatalf("check --settle-timeout 1s took %v: the rerun command's child held it", took)
	}
	if !strings.Contains(out, "timed out") {
		t.Errorf("settle did not report its time limit:\n%s", out)
	}
}
