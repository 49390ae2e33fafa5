package runner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/runner"
)

func TestPrepareOutDir(t *testing.T) {
	t.Parallel()
	touch := func(t *testing.T, p string) {
		t.Helper()
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("fresh start removes every run file and records N", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		for _, n := range []string{"run1.jsonl", "run7.jsonl", "notes.jsonl", "run0.jsonl"} {
			touch(t, filepath.Join(dir, n))
		}
		removed, err := runner.PrepareOutDir(dir, 2, false)
		if err != nil {
			t.Fatal(err)
		}
		// run0 is not one of ours (runs count from 1); notes.jsonl neither.
		if got, want := strings.Join(removed, ","), runner.RunFile(dir, 1)+","+runner.RunFile(dir, 7); got != want {
			t.Errorf("removed %s; want %s", got, want)
		}
		for _, n := range []string{"notes.jsonl", "run0.jsonl", runner.ManifestFile} {
			if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
				t.Errorf("%s: %v", n, err)
			}
		}
	})
	t.Run("resume without a manifest refuses a shorter series than the files show", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		touch(t, filepath.Join(dir, "run4.jsonl"))
		_, err := runner.PrepareOutDir(dir, 3, true)
		if err == nil || !strings.Contains(err.Error(), "holds run4.jsonl, from a series of at least 4 runs") {
			t.Fatalf("err = %v", err)
		}
		if _, err := runner.PrepareOutDir(dir, 4, true); err != nil {
			t.Fatalf("resume with 4: %v", err)
		}
		if _, err := runner.PrepareOutDir(dir, 5, true); err == nil || !strings.Contains(err.Error(), "started with --runs 4") {
			t.Fatalf("after the manifest, a changed N: err = %v", err)
		}
	})
	t.Run("a manifest that is not ours is named", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, runner.ManifestFile), []byte(`{"runs":"x"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := runner.PrepareOutDir(dir, 3, true)
		if err == nil || !strings.Contains(err.Error(), "not a run manifest written by evalgate run") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("N below 1", func(t *testing.T) {
		t.Parallel()
		if _, err := runner.PrepareOutDir(t.TempDir(), 0, false); err == nil {
			t.Fatal("no error for --runs 0")
		}
	})
}
