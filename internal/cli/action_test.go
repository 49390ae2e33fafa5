package cli_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/evalgate/evalgate/internal/cli"
)

// TestActionCommentGolden renders, in-process with the clock at goldenNow, the pull
// request comment `evalgate action` posts for the tutor example's three runs against
// its baseline (the body the fake GitHub receives, marker included) and compares it
// with testdata/action/comment-{pass,warn,fail}.md. TestActionE2E checks that the
// built binary posts the same bytes; the README shows comment-fail.md.
func TestActionCommentGolden(t *testing.T) {
	for _, c := range []struct {
		verdict, results string
		exit             int
		heading          string
	}{
		{"pass", "improved.jsonl", 0, "### ✅ evalgate · tutor-capstone: passed"},
		{"warn", "pr.jsonl", 0, "### ⚠️ evalgate · tutor-capstone: passed with warnings"},
		{"fail", "regressed.jsonl", 1, "### ❌ evalgate · tutor-capstone: blocked"},
	} {
		t.Run(c.verdict, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
			run := runAction(t, "", f, prSpec("pull_request.opened", c.results, nil))
			wantExit(t, run, c.exit)
			wantOutputs(t, run, map[string]string{"verdict": c.verdict})
			comment := onlyComment(t, f)
			if !strings.HasPrefix(comment, tutorMarker+"\n"+c.heading) {
				t.Errorf("the comment does not start with the marker and %q:\n%s", c.heading, comment)
			}
			compareGolden(t, filepath.Join("testdata", "action", "comment-"+c.verdict+".md"), []byte(comment))
		})
	}
}

// wantGoldenComment compares a comment the built binary posted with the golden file
// TestActionCommentGolden keeps.
func wantGoldenComment(t *testing.T, name, comment string) {
	t.Helper()
	if *update {
		return // TestActionCommentGolden rewrites them
	}
	compareGolden(t, filepath.Join("testdata", "action", name), []byte(comment))
}

// `evalgate action` takes no flags: everything comes from the environment.
func TestActionUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		exit int
	}{
		{[]string{"-h"}, cli.ExitPass},
		{[]string{"--help"}, cli.ExitPass},
		{[]string{"--config", "evalgate.yaml"}, cli.ExitBadInput},
	} {
		var stdout, stderr bytes.Buffer
		cmd := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}
		if got := cmd.Main(append([]string{"evalgate", "action"}, c.args...)); got != c.exit {
			t.Errorf("evalgate action %v: exit %d; want %d", c.args, got, c.exit)
		}
		if !strings.Contains(stderr.String(), "Usage: evalgate action") || stdout.Len() != 0 {
			t.Errorf("evalgate action %v: stdout %q, stderr %q; want the usage on stderr", c.args, stdout.String(), stderr.String())
		}
	}
}

// readmeAction returns the README's section on the GitHub Action.
func readmeAction(t *testing.T) string {
	t.Helper()
	readme := e2eRead(t, filepath.Join(repoRoot, "README.md"))
	_, section, ok := strings.Cut(readme, "\n## The GitHub Action\n")
	if !ok {
		t.Fatal(`README.md has no "## The GitHub Action" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	return section
}

// The README shows the blocked comment as the action posts it.
func TestREADMEShowsTheBlockedComment(t *testing.T) {
	t.Parallel()
	golden := e2eRead(t, filepath.Join("testdata", "action", "comment-fail.md"))
	// Without the hidden run stamp, the comment's last line: it differs from run to run.
	golden = regexp.MustCompile(`\n*<!-- evalgate:run=[0-9]+\.[0-9]+ -->$`).ReplaceAllString(golden, "\n")
	if !strings.Contains(readmeAction(t), "\n### What a blocked PR sees\n") || !strings.Contains(readmeAction(t), "\n"+golden) {
		t.Errorf("README.md's \"What a blocked PR sees\" does not hold testdata/action/comment-fail.md verbatim: paste it again")
	}
}

// The README's workflows are YAML and give the action only inputs action.yml declares.
func TestREADMEWorkflowsUseDeclaredInputs(t *testing.T) {
	t.Parallel()
	inputs := actionInputs(t, nil)
	blocks := strings.Split(readmeAction(t), "```yaml\n")[1:]
	if len(blocks) < 2 {
		t.Fatalf("%d workflows in the README's action section; want the PR gate and the release refresh", len(blocks))
	}
	for i, b := range blocks {
		b, _, _ = strings.Cut(b, "```")
		var wf struct {
			Permissions map[string]string `yaml:"permissions"`
			Jobs        map[string]struct {
				Steps []struct {
					Uses string            `yaml:"uses"`
					With map[string]string `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal([]byte(b), &wf); err != nil {
			t.Errorf("workflow %d: %v", i+1, err)
			continue
		}
		uses := 0
		for _, job := range wf.Jobs {
			for _, step := range job.Steps {
				if step.Uses != "evalgate/evalgate@v1" {
					continue
				}
				uses++
				for name := range step.With {
					if _, ok := inputs[name]; !ok {
						t.Errorf("workflow %d: input %q is not in action.yml", i+1, name)
					}
				}
			}
		}
		if uses != 1 || len(wf.Permissions) == 0 {
			t.Errorf("workflow %d: %d evalgate steps, permissions %v; want one step and explicit permissions", i+1, uses, wf.Permissions)
		}
	}
}
