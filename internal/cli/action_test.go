package cli_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

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
