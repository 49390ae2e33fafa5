package cli_test

import (
	"encoding/json"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
)

// --settle-timeout limits the re-runs, not the check: the judge takes 2.5 s over an
// output it has never seen (the pull request's broken answer, first scored by the
// check), longer than the 2 s limit, and answers at once after that (the re-runs'
// outputs are the same text, judged afresh). The check still scores the pull request,
// settles within the limit (each round's re-run, an exec `run:` block, takes
// milliseconds) and concludes: fail. Before, the limit was the whole check's: the
// first scoring was cut at 2 s and the check failed to run (exit 3) without settling.
func TestSettleTimeoutDoesNotCutTheFirstScoring(t *testing.T) {
	var slow atomic.Bool
	srv := scoringJudge(t, func(_ string, truth, asked int, _ string) int {
		if slow.Load() && asked == 0 {
			time.Sleep(2500 * time.Millisecond)
		}
		return truth
	})
	mustRun, pr := judgedSettleProject(t, srv)

	slow.Store(true)
	out := mustRun(cli.ExitGateFailed, "check", "--results", pr, "--settle", "--settle-timeout", "2s",
		"--settle-dir", filepath.Join(filepath.Dir(pr), "settled"), "--format", "json")
	var r struct {
		Settle struct {
			Initial string            `json:"initial"`
			Rounds  []json.RawMessage `json:"rounds"`
			Outcome string            `json:"outcome"`
		} `json:"settle"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Settle.Initial != "inconclusive" || len(r.Settle.Rounds) == 0 || r.Settle.Outcome != "fail" {
		t.Fatalf("settle: first look %q, %d round(s), outcome %q; want an inconclusive first look settled to a fail", r.Settle.Initial, len(r.Settle.Rounds), r.Settle.Outcome)
	}
}
