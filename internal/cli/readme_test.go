package cli_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// consoleBlock is a ```console fence: `$ evalgate ...` lines, each followed by what it
// prints; `$ echo $?` prints the exit code of the command before it.
var consoleBlock = regexp.MustCompile("(?s)```console\n(.*?)```\n")

// TestGoldenExampleReadmes runs every console transcript in the examples' READMEs from
// the repository root, as a user who copies the command would (COLUMNS=80, no colour),
// and compares what the binary prints with what the README shows. -update rewrites the
// transcripts: go test ./internal/cli -run Golden -update
func TestGoldenExampleReadmes(t *testing.T) {
	if _, err := exec.LookPath("evalgate"); err != nil {
		t.Fatalf("the test binary's evalgate command is not on PATH: %v", err)
	}
	readmes, _ := filepath.Glob("../../examples/*/README.md")
	if len(readmes) < 4 {
		t.Fatalf("found %d example READMEs; want one per example", len(readmes))
	}
	for _, path := range readmes {
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			blocks := consoleBlock.FindAllStringSubmatchIndex(text, -1)
			if len(blocks) == 0 {
				t.Fatalf("%s shows no ```console transcript of what evalgate prints", path)
			}
			var out strings.Builder
			last := 0
			for _, m := range blocks {
				want := text[m[2]:m[3]]
				got := transcript(t, want)
				if !*update && got != want {
					t.Errorf("%s: the transcript differs from what evalgate prints (-README +evalgate); run `go test ./internal/cli -run Golden -update`:\n%s", path, cmp.Diff(want, got))
				}
				out.WriteString(text[last:m[2]])
				out.WriteString(got)
				last = m[3]
			}
			out.WriteString(text[last:])
			if *update {
				if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// transcript reruns the commands of a console block and returns the block as the
// binary prints it now.
func transcript(t *testing.T, block string) string {
	var out strings.Builder
	code := 0
	for _, line := range strings.Split(block, "\n") {
		cmdline, ok := strings.CutPrefix(line, "$ ")
		if !ok {
			continue
		}
		out.WriteString(line + "\n")
		if cmdline == "echo $?" {
			out.WriteString(strconv.Itoa(code) + "\n")
			continue
		}
		args := strings.Fields(cmdline)
		quiet := false
		if n := len(args); n > 0 && args[n-1] == "2>/dev/null" {
			args, quiet = args[:n-1], true
		}
		if len(args) == 0 || args[0] != "evalgate" {
			t.Fatalf("console line %q: only evalgate commands (and echo $?) are run", line)
		}
		for i, a := range args {
			args[i] = strings.Trim(a, "'")
		}
		var buf bytes.Buffer
		cmd := exec.Command("evalgate", args[1:]...)
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "COLUMNS=80", "NO_COLOR=1", "GITHUB_SHA=0000000")
		cmd.Stdout = &buf
		if !quiet {
			cmd.Stderr = &buf
		}
		err := cmd.Run()
		code = 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", cmdline, err)
		}
		out.Write(buf.Bytes())
	}
	return out.String()
}
