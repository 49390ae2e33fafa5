package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docStep is one ```sh block of a doc and the ```text block after it, if any: what the
// doc says the commands print.
type docStep struct {
	commands []string
	want     []string
}

var docBlock = regexp.MustCompile("(?s)```(sh|text)\n(.*?)```")

func docSteps(t *testing.T, path string) []docStep {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var steps []docStep
	for _, m := range docBlock.FindAllStringSubmatch(string(b), -1) {
		var lines []string
		for _, l := range strings.Split(strings.TrimRight(m[2], "\n"), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				lines = append(lines, l)
			}
		}
		if m[1] == "sh" {
			steps = append(steps, docStep{commands: lines})
		} else if len(steps) > 0 {
			steps[len(steps)-1].want = append(steps[len(steps)-1].want, lines...)
		}
	}
	return steps
}

// TestGettingStartedFigures runs docs/getting-started.md's commands, in order, in an
// empty directory with the evalgate under test on PATH, and checks that every line the
// doc shows as output (its ```text blocks) is what the binary prints, figure for figure:
// a doc that says 13.1 where the binary prints 13.2 fails here.
func TestGettingStartedFigures(t *testing.T) {
	if _, err := exec.LookPath("evalgate"); err != nil {
		t.Fatalf("the test binary's evalgate command is not on PATH: %v", err)
	}
	steps := docSteps(t, "../../docs/getting-started.md")
	shown := 0
	dir := t.TempDir()
	for _, st := range steps {
		var out strings.Builder
		for _, c := range st.commands {
			if d, ok := strings.CutPrefix(c, "cd "); ok {
				dir = filepath.Join(dir, d)
				continue
			}
			cmd := exec.Command("sh", "-c", c)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "COLUMNS=400", "NO_COLOR=1", "GITHUB_SHA=")
			b, _ := cmd.Output() // exit codes are the script's (getting_started.txtar) to check
			out.Write(b)
		}
		for _, w := range st.want {
			shown++
			if !strings.Contains(out.String(), w) {
				t.Errorf("docs/getting-started.md shows %q after %q; evalgate printed:\n%s", w, st.commands, out.String())
			}
		}
	}
	if shown < 2 {
		t.Fatalf("the doc shows %d lines of output; want the baseline's and the blocked check's", shown)
	}
}
