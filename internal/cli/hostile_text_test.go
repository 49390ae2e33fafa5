package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
)

// TestHostileTextVisible: an item id with a bidi override and an output with an ESC
// sequence, a C1 control and a tag character reach no renderer raw: markdown (the PR
// comment and job summary) and the terminal table show them as \xNN and U+XXXX.
func TestHostileTextVisible(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "bad", "_base"), dir)
	suite := strings.Replace(readBase(t, "suite.yaml"), "id: c-02", `id: "c-\u202e02"`, 1)
	res := results(baseLine1,
		`{"id": "c-\u202e02", "output": "Gone\u001b[2J\u009b31m\udb40\udc41."}`,
		baseLine3)
	for name, body := range map[string]string{"suite.yaml": suite, "results.jsonl": res} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"markdown", "table"} {
		// A terminal wide enough that the output preview is not cut.
		code, stdout, stderr := runMainEnv(t, dir, []string{"evalgate", "check", "--config", filepath.Join(dir, "evalgate.yaml"), "--format", format},
			map[string]string{"COLUMNS": "400"})
		if code == cli.ExitBadInput {
			t.Fatalf("%s: exit 2: %s", format, stderr)
		}
		for _, raw := range []string{"\x1b", "\u202e", "\u009b", "\U000E0041"} {
			if strings.Contains(stdout, raw) {
				t.Errorf("%s: raw %q in the output", format, raw)
			}
		}
		for _, shown := range []string{"U+202E", "x1b", "x9b", "U+E0041"} {
			if !strings.Contains(stdout, shown) {
				t.Errorf("%s: %q not shown:\n%s", format, shown, stdout)
			}
		}
	}
}
