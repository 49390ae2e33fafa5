package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// The action reads the baseline as of the base commit into a temporary file; a note
// that names the baseline (a version 1 baseline's refresh hint) must name it as the
// repository does, and its command must still paste, quoted for the new name.
func TestNotesNameTheRepositoryBaseline(t *testing.T) {
	tmp := "/tmp/evalgate-base-baseline-123.jsonl"
	notes := []string{
		"baseline " + tmp + " is format version 1: its 3 recorded run(s) were re-scored for per-item spread; refresh it with `evalgate baseline --out " + tmp + "` to save the work",
		"suite changed since the baseline: 1 changed",
	}
	got := notesNaming(notes, tmp, "baselines/my bot.jsonl")
	want := "baseline baselines/my bot.jsonl is format version 1: its 3 recorded run(s) were re-scored for per-item spread; refresh it with `evalgate baseline --out 'baselines/my bot.jsonl'` to save the work"
	if got[0] != want {
		t.Errorf("note:\n got %s\nwant %s", got[0], want)
	}
	if got[1] != notes[1] {
		t.Errorf("a note without the path changed: %s", got[1])
	}
	_, cmd, _ := strings.Cut(got[0], "`")
	cmd, _, _ = strings.Cut(cmd, "`")
	if out, err := exec.Command("sh", "-n", "-c", cmd).CombinedOutput(); err != nil || strings.Contains(cmd, "/tmp/") {
		t.Errorf("%q: %v %s", cmd, err, out)
	}
}
