package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProposedGateRunsNoCommandOfItsOwn: the base commit's gate has no way to re-run
// items; the pull request's own config adds a `run:` block. Its verdict is inconclusive,
// and settle (the action's default) would re-run items with it: the proposed gate never
// runs a command, or calls an endpoint, that the base commit's gate does not (as for
// its judges), so the block's system is never started. (It was, with the step's
// environment: the token and the judges' keys.)
func TestProposedGateRunsNoCommandOfItsOwn(t *testing.T) {
	base := baseFiles(t)
	delete(base, tutorHistory) // inconclusive on the baseline's own runs (TestActionPrintsWorkspaceCommands)
	f := newFakeGitHub(t, fakeRepo{baseFiles: base, changed: []string{"evalgate.yaml"}})
	spec := prSpec("pull_request.synchronize", "", nil)
	spec.inputs["results"] = "results/regression-only.jsonl"
	spec.setup = func(t *testing.T, ws string) {
		e2eWrite(t, filepath.Join(ws, "results", "regression-only.jsonl"), e2eRead(t, filepath.Join("testdata", "action", "regression-only.jsonl")))
		e2eWrite(t, filepath.Join(ws, "evalgate.yaml"), withRunBlock(e2eRead(t, filepath.Join(ws, "evalgate.yaml")), ""))
	}
	// Were the pull request's `run:` block run, its system would leave this file behind.
	marker := filepath.Join(t.TempDir(), "ran")
	t.Setenv("SUT", "touch "+marker+"; "+sutReplay)
	t.Setenv("REPLAY", filepath.Join(repoRoot, "examples", "tutor-capstone", "results", "pr.jsonl"))
	run := runAction(t, "", f, spec)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the action ran the pull request's own run: block")
	}
	comment := onlyComment(t, f)
	if !strings.Contains(comment, "Proposed gate") {
		t.Errorf("no proposed gate shown:\n%s", comment)
	}
	if rep := readReport(t, run); rep["verdict"].(map[string]any)["status"] != "inconclusive" {
		t.Errorf("verdict %v; want the base gate's inconclusive (it cannot settle)", rep["verdict"])
	}
}
