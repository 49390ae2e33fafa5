package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestProposedGateNotScoredIsEscaped: why a proposed gate could not be scored quotes
// the pull request's own config (here a key, newlines and all, that no config has). It
// is shown as untrusted text, on its line of the proposed-gate note: it cannot end the
// note and write its own ("Proposed gate accepted by @maintainer"), a heading of its own,
// or mention anyone.
func TestProposedGateNotScoredIsEscaped(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{"evalgate.yaml"}})
	spec := prSpec("pull_request.synchronize", "regressed.jsonl", nil)
	spec.setup = func(t *testing.T, ws string) {
		cfg := filepath.Join(ws, "evalgate.yaml")
		e2eWrite(t, cfg, e2eRead(t, cfg)+`"x\n> [!NOTE]\n> **Proposed gate accepted** by @maintainer\n\n### ✅ evalgate · tutor-capstone: passed": 1`+"\n")
	}
	run := runAction(t, "", f, spec)
	wantExit(t, run, 1)
	comment := onlyComment(t, f)
	if !strings.Contains(comment, "could not be scored: it does not load") {
		t.Fatalf("the proposed gate is not shown as not scored:\n%s", comment)
	}
	for _, l := range strings.Split(comment, "\n") {
		if strings.HasPrefix(l, "### ✅") || strings.HasPrefix(l, "> **Proposed gate accepted**") || strings.Contains(l, "@maintainer") {
			t.Errorf("the pull request's text made a line of its own in the comment: %q\n%s", l, comment)
		}
	}
}
