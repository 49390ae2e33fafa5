package cli_test

import (
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sutReplay is a `run:` block's system that answers each item as the results file
// $REPLAY did (the shipped good run: the items that fell in the pull request's run
// pass when re-run).
const sutReplay = `grep "\"id\": \"$EVALGATE_ITEM_ID\"" "$REPLAY" |
  sed 's/^.*"output": "\(.*\)", "latency_e2e_ms".*$/\1/; s/\\"/"/g'
`

// withRunBlock is the repository's config with a `run:` block (the script $SUT), so
// that settle can re-run items, and more.
func withRunBlock(cfg, more string) string {
	return cfg + "run:\n  concurrency: 1\n  exec:\n    command: [sh, -c, 'eval \"$SUT\"']\n" + more
}

// printedCommands are the evalgate commands a comment prints in <code> spans.
func printedCommands(comment string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<code>(evalgate [^<]*)</code>`).FindAllStringSubmatch(comment, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// TestActionPrintsWorkspaceCommands: the commands an inconclusive verdict's comment
// prints to settle it (the privileged half of the fork-safe pair says what to run in
// the unprivileged job; a pull request whose settle spent its budget, how to settle
// on) name the action's inputs as the user gave them, relative to the repository, as
// the reproduce line does: never the temporary files the action checked (the base
// commit's config and baseline, settle's re-runs), which no other job has.
func TestActionPrintsWorkspaceCommands(t *testing.T) {
	const reproduce = "evalgate check --results results/regression-only.jsonl"
	setup := func(more string) func(t *testing.T, ws string) {
		return func(t *testing.T, ws string) {
			e2eWrite(t, filepath.Join(ws, "results", "regression-only.jsonl"), e2eRead(t, filepath.Join("testdata", "action", "regression-only.jsonl")))
			e2eWrite(t, filepath.Join(ws, "evalgate.yaml"), withRunBlock(e2eRead(t, filepath.Join(ws, "evalgate.yaml")), more))
		}
	}
	repo := func(more string) fakeRepo {
		base := baseFiles(t)
		base["evalgate.yaml"] = withRunBlock(base["evalgate.yaml"], more)
		// No history: with three baseline runs alone the run-level noise is known to 2
		// degrees of freedom, and the pull request's 4.5-pt drop on one run is
		// inconclusive (its two releases of history, std 0.01 and 0, would block it).
		delete(base, tutorHistory)
		head := map[string]string{}
		for k, v := range base {
			head[k] = v
		}
		return fakeRepo{baseFiles: base, headFiles: head}
	}
	// check: every printed command names no temporary or absolute path, parses, and
	// the ones in want are printed.
	check := func(t *testing.T, run actionRun, comment string, want ...string) {
		t.Helper()
		cmds := printedCommands(comment)
		for _, c := range cmds {
			if strings.Contains(c, " /") || strings.Contains(c, run.tmp) || strings.Contains(c, run.workspace) || strings.Contains(c, "evalgate-") {
				t.Errorf("a printed command names a path of the action's own: %s", c)
			}
			if out, err := exec.Command("sh", "-n", "-c", c).CombinedOutput(); err != nil {
				t.Errorf("%q does not parse: %v\n%s", c, err, out)
			}
		}
		for _, w := range want {
			found := false
			for _, c := range cmds {
				found = found || c == w
			}
			if !found {
				t.Errorf("no command %q among those printed:\n%s\ncomment:\n%s", w, strings.Join(cmds, "\n"), comment)
			}
		}
		rep := readReport(t, run)
		reg, _ := rep["regression"].(map[string]any)
		if rc, _ := reg["rerun_command"].(string); strings.Contains(rc, " /") || strings.Contains(rc, "evalgate-") {
			t.Errorf("the report's rerun_command names a path of the action's own: %s", rc)
		}
	}

	t.Run("privileged: the command for the unprivileged job", func(t *testing.T) {
		f := newFakeGitHub(t, repo(""))
		run := runAction(t, "", f, actionSpec{eventName: "workflow_run", event: "workflow_run.completed",
			inputs: map[string]string{"results": "results/regression-only.jsonl"}, setup: setup("")})
		comment := onlyComment(t, f)
		if !strings.Contains(comment, "settle did not run") {
			t.Fatalf("no privileged settle notice:\n%s", comment)
		}
		check(t, run, comment, reproduce, reproduce+" --settle",
			"evalgate run --only e-39-03 --only e-39-02 --only e-39-16 --only e-39-11 --only e-39-01 --out rerun1.jsonl && "+reproduce+" --rerun rerun1.jsonl")
	})

	t.Run("privileged: pull_request_target runs nothing either", func(t *testing.T) {
		f := newFakeGitHub(t, repo(""))
		spec := prSpec("pull_request.synchronize", "", nil)
		spec.eventName = "pull_request_target"
		spec.inputs["results"] = "results/regression-only.jsonl"
		spec.setup = setup("")
		// Were the `run:` block run, its system would leave this file behind.
		marker := filepath.Join(t.TempDir(), "ran")
		t.Setenv("SUT", "touch "+marker+"; "+sutReplay)
		run := runAction(t, "", f, spec)
		comment := onlyComment(t, f)
		if !strings.Contains(comment, "settle did not run") {
			t.Fatalf("no privileged settle notice:\n%s", comment)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("settle ran the config's run: block in a pull_request_target workflow")
		}
		check(t, run, comment, reproduce, reproduce+" --settle")
	})

	t.Run("pull request: settle spent its budget", func(t *testing.T) {
		f := newFakeGitHub(t, repo("settle: {budget: 1}\n"))
		spec := prSpec("pull_request.synchronize", "", nil)
		spec.inputs["results"] = "results/regression-only.jsonl"
		spec.setup = setup("settle: {budget: 1}\n")
		// The system runs from the config's folder (the action's copy of the base
		// commit's): it reads its answers by their absolute path.
		dir := t.TempDir()
		ws := filepath.Join(dir, "workspace")
		copyRepoFiles(t, ws)
		// The run is in-process: its system inherits the test's environment.
		t.Setenv("SUT", sutReplay)
		t.Setenv("REPLAY", filepath.Join(ws, "examples", "tutor-capstone", "results", "pr.jsonl"))
		run := runActionIn(t, "", f, spec, dir, ws)
		comment := onlyComment(t, f)
		if !strings.Contains(comment, "The settle budget is spent") {
			t.Fatalf("settle did not spend its budget:\n%s", comment)
		}
		// The reproduce line settles too: the job's re-runs are gone with it.
		check(t, run, comment, reproduce+" --settle", reproduce+" --settle --settle-budget 2")
	})
}
