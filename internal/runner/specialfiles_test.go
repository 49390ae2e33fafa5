package runner_test

import (
	"errors"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/runner"
	"github.com/evalgate/evalgate/internal/safeio"
)

// TestFilesReadBackRefuseAFIFO: every file the runner reads back (a results file to
// resume, a finished run's file, a budget note, an --out-dir manifest) may be a named
// pipe; opening one for reading blocks until a writer comes, so each must be refused
// at once as bad input, naming the file.
func TestFilesReadBackRefuseAFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := func(p string) string {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	results := fifo(filepath.Join(dir, "results.jsonl"))
	noted := filepath.Join(dir, "noted.jsonl")
	fifo(runner.BudgetNoteFile(noted))
	outDir := filepath.Join(dir, "runs")
	if _, err := runner.PrepareOutDir(outDir, 2, false); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(outDir, runner.ManifestFile)
	if err := syscall.Unlink(manifest); err != nil {
		t.Fatal(err)
	}
	fifo(manifest)
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"OpenResume", func() error { _, _, err := runner.OpenResume(results); return err }, `results\.jsonl: is a named pipe \(FIFO\); want a regular results file`},
		{"CompletedFile", func() error { _, err := runner.CompletedFile(results); return err }, `results\.jsonl: is a named pipe \(FIFO\); want a regular results file`},
		{"ReadBudgetNote", func() error { _, err := runner.ReadBudgetNote(noted); return err }, `noted\.jsonl\.budget\.json: is a named pipe \(FIFO\); want a regular budget note file`},
		{"PrepareOutDir", func() error { _, err := runner.PrepareOutDir(outDir, 2, true); return err }, `\.evalgate-runs\.json: is a named pipe \(FIFO\); want a regular run manifest file`},
	} {
		done := make(chan error, 1)
		go func() { done <- tc.call() }()
		select {
		case err := <-done:
			var ie *safeio.InputError
			if !errors.As(err, &ie) || !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("%s: error %v; want an input error matching %s", tc.name, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: blocked on the named pipe", tc.name)
		}
	}
}
