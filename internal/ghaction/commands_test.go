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

// An output value is written between delimiters it cannot hold: a value with line
// breaks and go-githubactions' fixed, public delimiter (a grade name a first adoption's
// config chose, say) stays one output and sets no other.
func TestOutputValueCannotSetAnotherOutput(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "output")
	c, _ := newCommands(map[string]string{"GITHUB_OUTPUT": file})
	evil := "A\n_GitHubActionsFileCommandDelimeter_\nverdict<<X\npass\nX\nz<<_GitHubActionsFileCommandDelimeter_\nz"
	c.setOutput("verdict", "fail")
	c.setOutput("grade", evil)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := parseOutputFile(string(b))
	if err != nil {
		t.Fatalf("%v in:\n%s", err, b)
	}
	want := map[string]string{"verdict": "fail", "grade": evil}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outputs %q; want %q\nfile:\n%s", got, want, b)
	}
}

// parseOutputFile reads a GITHUB_OUTPUT file as the runner does: "name=value" lines and
// "name<<DELIM" blocks ending at a line that is DELIM; a later value replaces an
// earlier one.
func parseOutputFile(s string) (map[string]string, error) {
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if name, delim, ok := strings.Cut(l, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			if i == len(lines) {
				return nil, fmt.Errorf("output %q: no closing %q", name, delim)
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("line %q is no output", l)
		}
		out[name] = val
	}
	return out, nil
}
