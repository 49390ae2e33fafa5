package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
)

// TestActionPoolsTheBaseHistoryAsCheckDoes: the action reads the base commit's
// baseline with the history beside it, and pools the run-level noise over the
// history's releases as a local `evalgate check` with the same files does, so the
// report's "reproduce locally" command gives the action's verdict. Before, the action
// copied the baseline alone: its run-level noise was known to 2 degrees of freedom (the
// baseline's three runs) and the pull request's 4.5-pt drop on one run was
// inconclusive, while the same check run locally, pooling the two releases (6 degrees
// of freedom), blocked it.
func TestActionPoolsTheBaseHistoryAsCheckDoes(t *testing.T) {
	base := baseFiles(t)
	f := newFakeGitHub(t, fakeRepo{baseFiles: base, changed: []string{"src/tutor.py"}})
	const results = "results/regression-only.jsonl"
	spec := prSpec("pull_request.synchronize", "", nil)
	spec.inputs["results"] = results
	spec.setup = func(t *testing.T, ws string) {
		e2eWrite(t, filepath.Join(ws, results), e2eRead(t, filepath.Join("testdata", "action", "regression-only.jsonl")))
	}
	run := runAction(t, "", f, spec)
	action := readReport(t, run)["regression"].(map[string]any)

	// The same check in the workspace, with the base commit's baseline and history.
	ws := run.workspace
	for _, p := range []string{tutorBaseline, tutorHistory} {
		e2eWrite(t, filepath.Join(ws, filepath.FromSlash(p)), base[p])
	}
	var out, errs strings.Builder
	c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs,
		Getenv: func(string) string { return "" }, Now: func() time.Time { return goldenNow }}
	c.Main([]string{"evalgate", "check", "--config", filepath.Join(ws, "evalgate.yaml"), "--results", filepath.Join(ws, results),
		"--format", "json", "--out", filepath.Join(ws, "local.json")})
	var local map[string]any
	if err := json.Unmarshal([]byte(e2eRead(t, filepath.Join(ws, "local.json"))), &local); err != nil {
		t.Fatalf("local report: %v\n%s", err, errs.String())
	}
	lr := local["regression"].(map[string]any)
	for _, k := range []string{"outcome", "p_value", "value"} {
		if action[k] == nil {
			t.Errorf("the action's report has no regression %s", k)
		}
		if action[k] != lr[k] {
			t.Errorf("regression %s: action %v, local check %v", k, action[k], lr[k])
		}
	}
	if action["outcome"] != "fail" {
		t.Errorf("action's regression outcome %v; want fail (the history's releases measure the run-level noise)", action["outcome"])
	}
}
