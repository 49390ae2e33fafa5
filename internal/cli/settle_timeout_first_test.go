package cli_test

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
)

// --settle-timeout limits the re-runs, not the check: a judge that takes 150 ms a call
// scores the pull request's 8 outputs, two at a time, in about 600 ms, twice the
// 300 ms limit, and the check still scores them, settles (its first round's re-run, an
// exec `run:` block, takes a few milliseconds) and concludes. Before, the limit was the
// whole check's: the first scoring was cut at 300 ms and the check failed to run
// (exit 3) without settling.
func TestSettleTimeoutDoesNotCutTheFirstScoring(t *testing.T) {
	srv := scoringJudge(t, func(_ string, truth, _ int, _ string) int {
		time.Sleep(150 * time.Millisecond)
		return truth
	})
	mustRun, pr := judgedSettleProject(t, srv)

	// The pull request's outputs are judged for the first time here (the cache holds
	// the baseline's alone), at 150 ms a call.
	out := mustRun(cli.ExitGateFailed, "check", "--results", pr, "--settle", "--settle-timeout", "300ms",
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
