package cli_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// TestMain makes this test binary double as the evalgate command, so testscript's
// scripts run the real command line (flags, streams, exit codes) in a subprocess.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"evalgate": func() { os.Exit(cli.New().Main(os.Args)) },
	})
}

// TestScript runs testdata/script/*.txtar end to end. Besides testscript's commands,
// `exitcode N program [args...]` runs a program and asserts its exact exit code (exec
// and ! exec only tell zero from non-zero; evalgate's 1 and 2 mean different things).
//
// $CHAT_URL is a fake OpenAI-compatible API on loopback (answer: 10 prompt and 5
// completion tokens a call), for scripts whose `run:` block is in openai mode.
func TestScript(t *testing.T) {
	chat := chattest.New(t, "/v1", answer)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("GITHUB_SHA", "")
			// $EXAMPLES lets a script copy a shipped example and break it on purpose.
			examples, err := filepath.Abs("../../examples")
			if err != nil {
				return err
			}
			env.Setenv("EXAMPLES", examples)
			env.Setenv("CHAT_URL", chat.BaseURL())
			// Stdout is not a terminal: lines are unwrapped, as in a CI log. How tables fit
			// a terminal is checked by TestTableWidth and terminal.txtar (which sets
			// COLUMNS).
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg {
					ts.Fatalf("unsupported: ! exitcode")
				}
				if len(args) < 2 {
					ts.Fatalf("usage: exitcode N program [args...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("exitcode: %q is not a number", args[0])
				}
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("exitcode: %v", err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("exit code %d; want %d", got, want)
				}
			},
			// replace FILE OLD NEW: every OLD in FILE becomes NEW (OLD must occur).
			"replace": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: replace FILE OLD NEW")
				}
				data := ts.ReadFile(args[0])
				if !strings.Contains(data, args[1]) {
					ts.Fatalf("replace: %q not in %s", args[1], args[0])
				}
				if err := os.WriteFile(ts.MkAbs(args[0]), []byte(strings.ReplaceAll(data, args[1], args[2])), 0o644); err != nil {
					ts.Fatalf("replace: %v", err)
				}
			},
		},
	})
}
