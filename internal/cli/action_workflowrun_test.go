package cli_test

import (
	"slices"
	"strings"
	"testing"
)

// TestActionWorkflowRun gates a pull request from the privileged half of the fork-safe
// pair: a workflow_run event whose triggering run was the pull request's. The pull
// request is found from the payload (same repository) or by its fork's head branch and
// sha; the check run goes to its head sha, never to GITHUB_SHA (the default branch);
// the gate is its base commit's (from the API, not the stale sha a payload may carry);
// its own definition, read at its head, is only proposed.
func TestActionWorkflowRun(t *testing.T) {
	for _, c := range []struct {
		name, event string
		forkHead    string
		weaken      bool // the pull request lowers its own bar
		findCall    string
	}{
		{name: "same repository", event: "workflow_run.completed", weaken: true, findCall: "GET /pulls/42"},
		{name: "fork", event: "workflow_run.completed.fork", forkHead: "forker:fix-typo", findCall: "GET /pulls?head=forker%3Afix-typo&page=1&per_page=100&state=open"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			base := baseFiles(t)
			head := map[string]string{}
			for k, v := range base {
				head[k] = v
			}
			if c.weaken {
				head["evalgate.yaml"] = strings.Replace(head["evalgate.yaml"], "min: 0.92, level: hard", "min: 0.5, level: hard", 1)
				head["evalgate.yaml"] = strings.Replace(head["evalgate.yaml"], "regression: {max_drop: 0.02", "regression: {max_drop: 0.5", 1)
			}
			f := newFakeGitHub(t, fakeRepo{baseFiles: base, headFiles: head, forkHead: c.forkHead, changed: []string{"evalgate.yaml"}})
			run := runAction(t, "", f, actionSpec{eventName: "workflow_run", event: c.event,
				inputs: map[string]string{"results": "examples/tutor-capstone/results/regressed.jsonl"}})
			wantExit(t, run, 1)
			wantCheckRun(t, f, 1, "failure", "blocked tutor-capstone") // on e2eHead, the pull request's head
			comment := onlyComment(t, f)
			calls := f.takeCalls()
			if !slices.Contains(calls, c.findCall) {
				t.Errorf("the pull request was not found with %q; calls:\n%s", c.findCall, strings.Join(calls, "\n"))
			}
			for _, want := range []string{"GET /contents/evalgate.yaml?ref=" + e2eBase, "GET /contents/" + tutorSuite + "?ref=" + e2eBase} {
				if !slices.Contains(calls, want) {
					t.Errorf("the gate was not read from the base commit (%s); calls:\n%s", want, strings.Join(calls, "\n"))
				}
			}
			for _, call := range calls {
				if strings.Contains(call, "0000000000000000000000000000000000000bad") || strings.Contains(call, e2eMain) {
					t.Errorf("read at the payload's stale base sha or the default branch: %s", call)
				}
			}
			rep := readReport(t, run)
			if cmp := rep["comparison"].(map[string]any); cmp["baseline_file"] != tutorBaseline+"@"+e2eBase[:7] {
				t.Errorf("baseline %q; want the base commit's", cmp["baseline_file"])
			}
			if md := rep["metadata"].(map[string]any); md["code_version"] != e2eHead {
				t.Errorf("code_version %v; want the pull request's head %s", md["code_version"], e2eHead)
			}
			proposed := strings.Contains(comment, "Proposed gate")
			if proposed != c.weaken {
				t.Errorf("proposed gate shown: %v; want %v\n%s", proposed, c.weaken, comment)
			}
			if c.weaken && !strings.Contains(comment, "grading system (gates, regression, grades) changed") {
				t.Errorf("the proposed gate does not say what it changes:\n%s", comment)
			}
		})
	}
}
