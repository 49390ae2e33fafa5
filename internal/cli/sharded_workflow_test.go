package cli_test

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/cli"
)

// shardedWorkflow is the example workflow TestShardedWorkflowRuns follows.
const shardedWorkflow = "../../.github/workflows/example-sharded.yml"

// workflow is the part of a GitHub workflow the test reads.
type workflow struct {
	Jobs map[string]struct {
		Needs    any `yaml:"needs"`
		Strategy struct {
			Matrix map[string][]any `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []struct {
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestShardedWorkflowRuns runs every evalgate command of the example sharded workflow,
// as the workflow would: each matrix job in a fresh copy of a project (evalgate init,
// with a baseline), its uploaded artifacts downloaded into the gate job's copy as
// download-artifact's pattern and merge-multiple say. The sharded gate must give the
// verdict of an unsharded check: pass, then blocked once the system regresses.
func TestShardedWorkflowRuns(t *testing.T) {
	data, err := os.ReadFile(shardedWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	shardJob, gateJob := wf.Jobs["shard"], wf.Jobs["gate"]
	shards := shardJob.Strategy.Matrix["shard"]
	if len(shards) != 4 || len(gateJob.Steps) == 0 || gateJob.Needs != "shard" {
		t.Fatalf("want a 4-way matrix job `shard` and a job `gate` that needs it; got matrix %v, gate needs %v", shards, gateJob.Needs)
	}
	doc, err := filepath.Abs("../../docs/sharding.md") // before the test changes directory
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(abs, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	mustRun(t, "init")
	mustRun(t, "run", "--runs", "3", "--out-dir", "runs/release")
	mustRun(t, "baseline", "--results", "runs/release/run1.jsonl", "--results", "runs/release/run2.jsonl", "--results", "runs/release/run3.jsonl")

	seen := map[string]bool{} // "evalgate <command> <first flag>" of every command run
	gate := func(round string) int {
		artifacts := map[string]string{} // artifact name → the directory it holds
		for _, sh := range shards {
			job := copyDir(t, repo, filepath.Join(abs, round, "shard"+toString(sh)))
			t.Chdir(job)
			vars := map[string]string{"matrix.shard": toString(sh), "github.run_id": "1"}
			for _, st := range shardJob.Steps {
				for _, line := range evalgateLines(t, st.Run, vars) {
					seen[line[0]+" "+line[1]] = true
					if code := runIn(t, line...); code != cli.ExitPass {
						t.Fatalf("shard %v: %s: exit %d", sh, strings.Join(line, " "), code)
					}
				}
				if strings.HasPrefix(st.Uses, "actions/upload-artifact@") {
					artifacts[expand(st.With["name"], vars)] = filepath.Join(job, expand(st.With["path"], vars))
				}
			}
		}
		job := copyDir(t, repo, filepath.Join(abs, round, "gate"))
		t.Chdir(job)
		code := cli.ExitPass
		for _, st := range gateJob.Steps {
			if strings.HasPrefix(st.Uses, "actions/download-artifact@") {
				for name, dir := range artifacts {
					if _, err := os.Stat(dir); err != nil {
						continue // uploaded nothing (if-no-files-found: ignore)
					}
					if ok, _ := path.Match(st.With["pattern"], name); ok && st.With["merge-multiple"] == "true" {
						copyDir(t, dir, filepath.Join(job, st.With["path"]))
					}
				}
			}
			for _, line := range evalgateLines(t, st.Run, nil) {
				if code != cli.ExitPass {
					break // a failed step ends the job
				}
				seen[line[0]+" "+line[1]] = true
				code = runIn(t, line...)
			}
			if isAction(st.Uses) && code == cli.ExitPass {
				// The action on the pull request, against a fake GitHub serving the
				// base commit: this project's config, suite and baseline as committed.
				seen["action report"] = st.With["report"] != ""
				f := newFakeGitHub(t, fakeRepo{baseFiles: projectFiles(t, repo, "evalgate.yaml", "evals/suite.yaml", "baselines")})
				run := runActionIn(t, "", f, actionSpec{eventName: "pull_request", event: "pull_request.opened", inputs: st.With}, t.TempDir(), job)
				if code = run.code; code == cli.ExitBadInput {
					t.Errorf("the action step: exit 2:\n%s", run.stdout)
				}
				f.mu.Lock()
				if len(f.comments) != 1 || len(f.checkRuns) != 1 {
					t.Errorf("the action step wrote %d comments and %d check runs; want one each", len(f.comments), len(f.checkRuns))
				}
				f.mu.Unlock()
			}
		}
		return code
	}
	if code := gate("pass"); code != cli.ExitPass {
		t.Fatalf("the sharded gate on the unchanged system: exit %d; want 0", code)
	}
	// The regression of docs/getting-started.md: one item answers "Lyon", −16 pts.
	sut := filepath.Join(repo, "evals", "system.sh")
	b, err := os.ReadFile(sut)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sut, bytes.ReplaceAll(b, []byte("Paris"), []byte("Lyon")), 0o755); err != nil {
		t.Fatal(err)
	}
	if code := gate("regressed"); code != cli.ExitGateFailed {
		t.Fatalf("the sharded gate on the regressed system: exit %d; want %d (blocked), as unsharded", code, cli.ExitGateFailed)
	}
	t.Chdir(repo)
	mustRun(t, "run", "--runs", "3", "--out-dir", "runs/pr")
	if code := runIn(t, "check", "--results", "runs/pr/run1.jsonl", "--results", "runs/pr/run2.jsonl", "--results", "runs/pr/run3.jsonl"); code != cli.ExitGateFailed {
		t.Errorf("unsharded check of the regressed system: exit %d; want %d", code, cli.ExitGateFailed)
	}
	// docs/sharding.md shows the same commands, for shard 2.
	var want []string
	for _, st := range append(slices.Clone(shardJob.Steps), gateJob.Steps...) {
		for _, line := range strings.Split(st.Run, "\n") {
			if line = strings.TrimSpace(expand(line, map[string]string{"matrix.shard": "2"})); strings.HasPrefix(line, "evalgate ") {
				want = append(want, line)
			}
		}
	}
	if diff := cmp.Diff(want, shLines(t, doc)); diff != "" {
		t.Errorf("docs/sharding.md's commands differ from the workflow's for shard 2 (-workflow +doc):\n%s", diff)
	}
	for _, want := range []string{"run --shard", "score --shard", "merge --no-baseline", "action report"} {
		if !seen[want] {
			t.Errorf("the workflow never runs `evalgate %s ...`; ran %v", want, seen)
		}
	}
}

// isAction reports whether a step's uses: is the evalgate action itself (not setup).
func isAction(uses string) bool {
	name, _, _ := strings.Cut(uses, "@")
	return name == "evalgate/evalgate"
}

// evalgateLines are the evalgate commands of a step's script, as argument lists
// without "evalgate": ${{ x }} replaced from vars, quotes removed, unquoted patterns
// expanded as the shell does.
func evalgateLines(t *testing.T, script string, vars map[string]string) [][]string {
	t.Helper()
	var out [][]string
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(expand(line, vars))
		if !strings.HasPrefix(line, "evalgate ") {
			continue
		}
		if strings.ContainsAny(line, "${}|;&<>`\\") {
			t.Fatalf("%q: keep the workflow's evalgate lines plain (no pipes, variables or redirections) so this test can run them", line)
		}
		out = append(out, shellWords(t, line)[1:])
	}
	return out
}

// expand replaces ${{ name }} by vars[name]; an unknown name is left for the caller.
func expand(s string, vars map[string]string) string {
	for k, v := range vars {
		s = strings.ReplaceAll(s, "${{ "+k+" }}", v)
	}
	return s
}

// shellWords splits a plain command line as sh does: single and double quotes group,
// unquoted words with * or ? are expanded (sorted, as sh does), or kept when they match
// nothing.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	var quote rune
	inWord, glob := false, false
	flush := func() {
		if !inWord {
			return
		}
		w := cur.String()
		if m, _ := filepath.Glob(w); glob && len(m) > 0 {
			slices.Sort(m)
			words = append(words, m...)
		} else {
			words = append(words, w)
		}
		cur.Reset()
		inWord, glob = false, false
	}
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			flush()
		default:
			if r == '*' || r == '?' {
				glob = true
			}
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		t.Fatalf("%q: unbalanced quote", line)
	}
	flush()
	return words
}

func toString(v any) string {
	b, _ := yaml.Marshal(v)
	return strings.TrimSpace(string(b))
}

// runIn runs evalgate in-process in the current directory and returns its exit code.
func runIn(t *testing.T, args ...string) int {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }, GitSHA: func() string { return "abc" }}
	code := c.Main(append([]string{"evalgate"}, args...))
	if code == cli.ExitBadInput {
		t.Errorf("evalgate %s: exit 2 (a flag or an input the command refuses):\n%s", strings.Join(args, " "), stderr.String())
	}
	return code
}

func mustRun(t *testing.T, args ...string) {
	t.Helper()
	if code := runIn(t, args...); code != cli.ExitPass {
		t.Fatalf("evalgate %s: exit %d", strings.Join(args, " "), code)
	}
}

// copyDir copies the regular files under src into dst (created) and returns dst.
func copyDir(t *testing.T, src, dst string) string {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
