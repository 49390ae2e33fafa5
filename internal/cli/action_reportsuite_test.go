package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReportInputKeepsTheBaseSuite: with the report input (shards scored in the pull
// request's own jobs, merged), the suite is still the base commit's. A pull request that
// deletes its failing items from the suite, their rubric tests and results, then shards
// and merges, is not passed: with its results it is blocked (the deleted items count as
// missing under the base gate); with reports, which carry their own suite and scores
// computed against it, the check stops and names the items (exit 2, check failed).
// (The merged report's own suite applied, so nothing was missing and the check passed.)
func TestReportInputKeepsTheBaseSuite(t *testing.T) {
	t.Parallel()
	bin := buildEvalgate(t)
	drop := []string{"e-39-03", "e-39-07", "e-39-12"}
	edit := func(t *testing.T, ws string) {
		removeSuiteItems(t, filepath.Join(ws, tutorSuite), drop...)
		removeRubricTests(t, filepath.Join(ws, "examples/tutor-capstone/rubric_tests.yaml"), drop...)
		removeResults(t, filepath.Join(ws, "examples/tutor-capstone/results/regressed.jsonl"), drop...)
	}
	// The same attack with the results input: blocked.
	f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{tutorSuite}})
	spec := prSpec("pull_request.synchronize", "regressed.jsonl", nil)
	spec.setup = edit
	wantExit(t, runAction(t, bin, f, spec), 1)
	wantCheckRun(t, f, 1, "failure", "blocked tutor-capstone")

	g := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{tutorSuite}})
	spec = prSpec("pull_request.synchronize", "", map[string]string{"results": "", "report": "merged.json"})
	spec.setup = func(t *testing.T, ws string) {
		edit(t, ws)
		shardInWorkspace(t, bin, ws, []string{"examples/tutor-capstone/results/regressed.jsonl"}, true)
	}
	run := runAction(t, bin, g, spec)
	wantExit(t, run, 2)
	wantCheckRun(t, g, 1, "failure", "evalgate could not run")
	want := "the reports were scored against another suite than the base commit's " + tutorSuite + ": 3 item(s) of the base commit's suite they lack (e-39-03, e-39-07, e-39-12)"
	if !strings.Contains(run.summary, want) {
		t.Errorf("the summary does not say why:\n%s", run.summary)
	}
}
