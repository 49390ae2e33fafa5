package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/testdata/testtools"
)

// TestRunExecThenCheck runs the tutor example's stand-in system (sut.py) over the suite
// with `evalgate run`, then scores the results with `evalgate check`. The timeout is not
// under test here: a copy of the example allows each item 10 minutes instead of 10 s, so a
// loaded machine starting python3 slowly cannot time an item out.
func TestRunExecThenCheck(t *testing.T) {
	testtools.Require(t, "the tutor example's sut.py", "python3")
	out := filepath.Join(t.TempDir(), "sut.jsonl")
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	dir := filepath.Join(t.TempDir(), "tutor-capstone")
	copyTree(t, "../../examples/tutor-capstone", dir)
	cfg := filepath.Join(dir, "evalgate.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("\n    timeout: 10s\n")) {
		t.Fatal("the example's run.exec.timeout is no longer 10s: update this test")
	}
	if err := os.WriteFile(cfg, bytes.Replace(b, []byte("\n    timeout: 10s\n"), []byte("\n    timeout: 10m\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := c.Main([]string{"evalgate", "run", "--config", cfg, "--out", out}); code != 0 {
		t.Fatalf("run exit %d: %s", code, stderr.String())
	}
	run, err := eval.LoadRun(out)
	if err != nil {
		t.Fatal(err)
	}
	// 20 suite items, one result each, with e2e latency measured.
	if len(run.Results) != 20 {
		t.Fatalf("%d results; want 20", len(run.Results))
	}
	for _, r := range run.Results {
		if r.LatencyE2EMs == nil || *r.LatencyE2EMs <= 0 {
			t.Errorf("%s: no latency measured", r.ID)
		}
	}
	stdout.Reset()
	stderr.Reset()
	code := c.Main([]string{"evalgate", "score", "--config", cfg, "--results", out, "--format", "markdown"})
	if code != 0 {
		t.Fatalf("score exit %d: %s", code, stderr.String())
	}
	// sut.py answers every item correctly but leaves out the Spanish for "eat" (seed
	// 000's e-39-01): 19 items at 1.0 and one at 0.60 + 0.10 + 0.05 = 0.75, so the mean is
	// (19 + 0.75) / 20 = 0.9875, printed as 0.988.
	if !strings.Contains(stdout.String(), "score 0.988") {
		t.Errorf("score line missing 0.988:\n%s", stdout.String())
	}
}
