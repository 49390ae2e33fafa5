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

// TestBaselineInputTheBaseLacks: the workflow's baseline input names a file the base
// commit does not have. That baseline is missing (and require-baseline fails); the
// action does not compare with the config's baseline instead, as it did, passing a
// gate whose workflow names another bar.
func TestBaselineInputTheBaseLacks(t *testing.T) {
	t.Parallel()
	const named = "baselines/release-2.jsonl"
	files := baseFiles(t)
	files[e2eWorkflow] = strings.Replace(e2eWorkflowYAML, "results: results/*.jsonl", "results: results/*.jsonl\n          baseline: "+named, 1)
	for _, required := range []bool{false, true} {
		f := newFakeGitHub(t, fakeRepo{baseFiles: files, changed: []string{"src/tutor.py"}})
		inputs := map[string]string{"baseline": named}
		if required {
			inputs["require-baseline"] = "true"
		}
		run := runAction(t, "", f, prSpec("pull_request.synchronize", "pr.jsonl", inputs))
		comment := onlyComment(t, f)
		rep := readReport(t, run)
		if cmp, ok := rep["comparison"].(map[string]any); ok && cmp != nil {
			t.Errorf("required %v: compared with %v; want no comparison (the named baseline is missing)", required, cmp["baseline_file"])
		}
		if !strings.Contains(comment, named) {
			t.Errorf("required %v: the comment does not name the missing baseline %s:\n%s", required, named, comment)
		}
		if required {
			wantExit(t, run, 1)
			wantCheckRun(t, f, 1, "failure", "blocked tutor-capstone")
		}
	}
}
