package cli_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A pull request that leaves its config alone and edits only the suite's expected
// answers is judged by the base commit's suite, and its suite shows as a proposed gate.
func TestGateSuiteFromBase(t *testing.T) {
	t.Parallel()
	wantBaseGate(t, tutorSuite, true, func(t *testing.T, ws string) {
		editFile(t, filepath.Join(ws, tutorSuite), "english: [spoke]", "english: [speaked]", "english: [came]", "english: [comed]")
	})
}

// A pull request that rewrites the history beside the baseline (eight wildly noisy
// releases, so that a drop would look like noise) is judged with the base commit's
// history; the history is no part of the gate's definition, so no proposed gate.
func TestGateHistoryFromBase(t *testing.T) {
	t.Parallel()
	const history = "baselines/tutor-capstone.history.jsonl"
	wantBaseGate(t, history, false, func(t *testing.T, ws string) {
		var b strings.Builder
		for i := range 8 {
			fmt.Fprintf(&b, `{"release":"refs/tags/v0.%d.0","date":"2026-01-0%dT10:00:00Z","commit":"1111111","mean":%s,"std":0.3,"runs":3,"pass_rate":0.5,"dimensions":{},"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0","rubric_hash":""}`+"\n",
				i, i+1, []string{"0.5", "0.99"}[i%2])
		}
		e2eWrite(t, filepath.Join(ws, history), b.String())
	})
}

// wantBaseGate runs the regressed results as a pull request that changes the file
// changed with edit: the base commit's gate blocks it, and the comment shows a proposed
// gate or not, as proposed says.
func wantBaseGate(t *testing.T, changed string, proposed bool, edit func(t *testing.T, ws string)) {
	t.Helper()
	f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{changed}})
	spec := prSpec("pull_request.synchronize", "regressed.jsonl", nil)
	spec.setup = edit
	run := runAction(t, "", f, spec)
	wantExit(t, run, 1)
	wantCheckRun(t, f, 1, "failure", "blocked tutor-capstone")
	if got := strings.Contains(onlyComment(t, f), "Proposed gate"); got != proposed {
		t.Errorf("proposed gate shown: %v; want %v", got, proposed)
	}
}
