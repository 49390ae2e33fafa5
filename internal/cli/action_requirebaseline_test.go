package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRequiredBaselineAddedByThePullRequest: the base commit's gate requires a baseline
// (require-baseline) that the base commit lacks, so every pull request fails its
// regression gate until one is merged. A pull request that adds a file at that path
// does not meet the requirement: the file is its own, never compared with, and the
// check still fails. (It passed: "this pull request adds it" skipped the regression
// gate as though nothing were missing.)
func TestRequiredBaselineAddedByThePullRequest(t *testing.T) {
	t.Parallel()
	files := baseFiles(t)
	delete(files, tutorBaseline)
	f := newFakeGitHub(t, fakeRepo{baseFiles: files, changed: []string{tutorBaseline}})
	spec := prSpec("pull_request.synchronize", "pr.jsonl", map[string]string{"require-baseline": "true"})
	baselineFile := e2eRead(t, filepath.Join(repoRoot, filepath.FromSlash(tutorBaseline)))
	spec.setup = func(t *testing.T, ws string) {
		e2eWrite(t, filepath.Join(ws, filepath.FromSlash(tutorBaseline)), baselineFile)
	}
	run := runAction(t, "", f, spec)
	wantExit(t, run, 1)
	wantCheckRun(t, f, 1, "failure", "blocked tutor-capstone")
	if comment := onlyComment(t, f); !strings.Contains(comment, "baseline "+tutorBaseline+" is required (require\\_baseline) but does not exist") {
		t.Errorf("the regression gate does not say the baseline is required:\n%s", comment)
	}
}
