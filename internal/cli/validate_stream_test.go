package cli

import (
	"os"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
)

// TestValidateStreamsImportedFile: validate reads a file another tool wrote as check
// does (a promptfoo --repeat 3 export, each run as it is decoded), holds none of its
// records (no run is loaded), leaves no temporary file, counts its 3 runs, and makes the
// same suite, item for item and hash for hash, as reading it into memory does.
func TestValidateStreamsImportedFile(t *testing.T) {
	pf, cfg := promptfooExample(t, t.TempDir())
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	l, err := Load(CheckOptions{CheckPlan: CheckPlan{Config: cfg, Results: []string{pf}}})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := l.validateResults()
	if err != nil {
		t.Fatal(err)
	}
	if runs != 3 || l.Runs != nil {
		t.Errorf("validate read %d runs and holds %d in memory; want the export's 3 repeats, none held", runs, len(l.Runs))
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("%d temporary file(s) left", len(left))
	}
	mem, err := Load(CheckOptions{CheckPlan: CheckPlan{Config: cfg, Results: []string{pf}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := mem.LoadRuns(); err != nil {
		t.Fatal(err)
	}
	want, err := eval.SuiteFromRun(mem.Runs[0])
	if err != nil {
		t.Fatal(err)
	}
	if l.Suite.Len() != want.Len() || l.Suite.Len() == 0 {
		t.Fatalf("suite of %d items; in memory %d", l.Suite.Len(), want.Len())
	}
	for i := range want.Len() {
		if l.Suite.ID(i) != want.ID(i) || l.Suite.HashOf(i) != want.HashOf(i) {
			t.Errorf("item %d: %s %s; in memory %s %s", i, l.Suite.ID(i), l.Suite.HashOf(i), want.ID(i), want.HashOf(i))
		}
	}
}
