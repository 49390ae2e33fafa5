package ghaction

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/github"
	"github.com/sethvargo/go-githubactions"
)

func newCommands(env map[string]string) (*commands, *strings.Builder) {
	var out strings.Builder
	a := githubactions.New(githubactions.WithGetenv(func(k string) string { return env[k] }), githubactions.WithWriter(&out))
	return newCommandsFor(a), &out
}

func TestAnnotateLimits(t *testing.T) {
	t.Parallel()
	var anns []github.Annotation
	for i := range 15 {
		anns = append(anns, github.Annotation{Path: "suite.yaml", StartLine: i + 1, Level: github.LevelFailure, Title: fmt.Sprintf("t-%02d", i), Message: "newly fails"})
	}
	for i := range 3 {
		anns = append(anns, github.Annotation{Path: "suite.yaml", StartLine: 100 + i, EndLine: 101 + i, Level: github.LevelWarning, Message: "soft"})
	}
	c, out := newCommands(nil)
	c.annotate(anns)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	count := map[string]int{}
	for _, l := range lines {
		count[regexp.MustCompile(`^::(\w+)`).FindStringSubmatch(l)[1]]++
	}
	if count["error"] != maxErrorAnnotations || count["warning"] != 3 {
		t.Errorf("%d errors and %d warnings, want %d and 3:\n%s", count["error"], count["warning"], maxErrorAnnotations, out)
	}
	if want := "::error::6 more failure annotations: see the job summary and the check run"; !strings.Contains(out.String(), want) {
		t.Errorf("no overflow line %q in:\n%s", want, out)
	}
	for _, want := range []string{"file=suite.yaml", "line=9", "title=t-08", "endLine=101"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

func TestAddSummaryTruncates(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "summary.md")
	c, _ := newCommands(map[string]string{"GITHUB_STEP_SUMMARY": path})
	c.addSummary(strings.Repeat("| item | 0.50 | ❌ |\n", 2*maxStepSummary/20))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > maxStepSummary {
		t.Errorf("summary is %d bytes, over %d", len(b), maxStepSummary)
	}
	if !strings.HasSuffix(string(b), summaryTruncationNote+"\n") {
		t.Errorf("summary does not end with the truncation note: ...%q", b[len(b)-80:])
	}
}

func TestUnwritableOutputIsReported(t *testing.T) {
	t.Parallel()
	c, out := newCommands(map[string]string{"GITHUB_OUTPUT": filepath.Join(t.TempDir(), "no", "such", "dir", "output")})
	c.setOutput("score", "0.9100")
	if c.failures.list() != "outputs" || !strings.Contains(out.String(), `::error::evalgate: cannot write the output "score"`) {
		t.Errorf("failed channels %q, log:\n%s", c.failures.list(), out)
	}
}
