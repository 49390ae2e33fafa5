package cli_test

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGettingStartedFollowsTheDoc checks that docs/getting-started.md and the script that
// runs it (testdata/script/getting_started.txtar) hold the same commands in the same
// order: every line of the doc's ```sh blocks, and every command of the script with
// testscript's `exec ` or `exitcode N ` prefix taken off (assertions are not commands).
func TestGettingStartedFollowsTheDoc(t *testing.T) {
	t.Parallel()
	doc := shLines(t, "../../docs/getting-started.md")
	script := scriptCommands(t, "testdata/script/getting_started.txtar")
	if len(doc) < 8 {
		t.Fatalf("the doc has %d commands; want the whole walk-through (init, run, baseline, a blocked run)", len(doc))
	}
	if diff := cmp.Diff(doc, script); diff != "" {
		t.Errorf("docs/getting-started.md and getting_started.txtar differ (-doc +script):\n%s", diff)
	}
}

func shLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "```sh":
			in = true
		case strings.HasPrefix(line, "```"):
			in = false
		case in && line != "" && !strings.HasPrefix(line, "#"):
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// assertions are testscript's checks; they are not steps of the walk-through.
var assertion = regexp.MustCompile(`^!?\s*(stdout|stderr|exists|grep|cmp|cmpenv)\b`)
var runPrefix = regexp.MustCompile(`^(exec|exitcode [0-9]+) `)

func scriptCommands(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "-- ") {
			break // the archive's files
		}
		if line == "" || strings.HasPrefix(line, "#") || assertion.MatchString(line) {
			continue
		}
		out = append(out, runPrefix.ReplaceAllString(line, ""))
	}
	return out
}
