package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGateFilesFromBase: a pull request that leaves its config alone and edits only a
// file the gate reads (the suite's expected answers, the baseline's history beside it)
// is still judged by the base commit's copies, and an edited suite shows as a proposed
// gate.
func TestGateFilesFromBase(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		changed  string
		edit     func(t *testing.T, ws string)
		proposed bool
	}{
		{name: "suite's expected answers", changed: tutorSuite, proposed: true, edit: func(t *testing.T, ws string) {
			editFile(t, filepath.Join(ws, tutorSuite), "english: [spoke]", "english: [speaked]", "english: [came]", "english: [comed]")
		}},
		{name: "history beside the baseline", changed: "baselines/tutor-capstone.history.jsonl", edit: func(t *testing.T, ws string) {
			var b strings.Builder
			for i := range 8 { // eight wildly noisy releases: a drop would look like noise
				b.WriteString(`{"release":"refs/tags/v0.` + string(rune('0'+i)) + `.0","date":"2026-01-0` + string(rune('1'+i)) + `T10:00:00Z","commit":"1111111","mean":` + []string{"0.5", "0.99"}[i%2] + `,"std":0.3,"runs":3,"pass_rate":0.5,"dimensions":{},"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0","rubric_hash":""}` + "\n")
			}
			e2eWrite(t, filepath.Join(ws, "baselines/tutor-capstone.history.jsonl"), b.String())
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{c.changed}})
			spec := prSpec("pull_request.synchronize", "regressed.jsonl", nil)
			spec.setup = func(t *testing.T, ws string) { c.edit(t, ws) }
			run := runAction(t, "", f, spec)
			wantExit(t, run, 1)
			wantCheckRun(t, f, 1, "failure", "blocked tutor-capstone")
			comment := onlyComment(t, f)
			if got := strings.Contains(comment, "Proposed gate"); got != c.proposed {
				t.Errorf("proposed gate shown: %v; want %v\n%s", got, c.proposed, comment)
			}
		})
	}
}
