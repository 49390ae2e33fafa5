package gate

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
)

// Every verdict's meaning, in one table: the word, the check conclusion, the level of the
// verdict's annotation and of the failing items', the exit code, and whether the action's
// step fails under each fail-on (soft: a soft gate warned).
func TestVerdictMeaning(t *testing.T) {
	type failOn struct{ hard, soft, never bool }
	for _, c := range []struct {
		status      Status
		blocks      bool
		softFailed  bool
		word        string
		conclusion  Conclusion
		level, item Level
		exit        int
		fails       failOn
	}{
		{Pass, false, false, "passed", ConclusionSuccess, LevelNone, LevelWarning, ExitPass, failOn{}},
		{Warn, false, true, "passed with warnings", ConclusionSuccess, LevelWarning, LevelWarning, ExitPass, failOn{soft: true}},
		{Inconclusive, false, true, "inconclusive", ConclusionNeutral, LevelWarning, LevelWarning, ExitPass, failOn{soft: true}},
		{Inconclusive, true, true, "inconclusive, blocked", ConclusionFailure, LevelFailure, LevelFailure, ExitFail, failOn{hard: true, soft: true}},
		{Fail, true, false, "blocked", ConclusionFailure, LevelFailure, LevelFailure, ExitFail, failOn{hard: true, soft: true}},
		// Accepted: the regression a maintainer accepted no longer fails the step, unless a
		// soft gate also warned and fail-on is soft.
		{Accepted, false, false, "regression accepted", ConclusionNeutral, LevelNotice, LevelWarning, ExitPass, failOn{}},
		{Accepted, false, true, "regression accepted", ConclusionNeutral, LevelNotice, LevelWarning, ExitPass, failOn{soft: true}},
	} {
		v := &Verdict{Status: c.status, Blocks: c.blocks}
		name := fmt.Sprintf("%s blocks=%v soft=%v", c.status, c.blocks, c.softFailed)
		if got := v.Word(); got != c.word {
			t.Errorf("%s: Word() = %q; want %q", name, got, c.word)
		}
		if got := v.Conclusion(); got != c.conclusion {
			t.Errorf("%s: Conclusion() = %q; want %q", name, got, c.conclusion)
		}
		if got := v.AnnotationLevel(); got != c.level {
			t.Errorf("%s: AnnotationLevel() = %q; want %q", name, got, c.level)
		}
		if got := v.ItemLevel(); got != c.item {
			t.Errorf("%s: ItemLevel() = %q; want %q", name, got, c.item)
		}
		if got := v.ExitCode(); got != c.exit {
			t.Errorf("%s: ExitCode() = %d; want %d", name, got, c.exit)
		}
		got := failOn{v.FailsStep(FailOnHard, c.softFailed), v.FailsStep(FailOnSoft, c.softFailed), v.FailsStep(FailOnNever, c.softFailed)}
		if got != c.fails {
			t.Errorf("%s: FailsStep(hard, soft, never) = %+v; want %+v", name, got, c.fails)
		}
		if code := v.StepExitCode(FailOnSoft, c.softFailed); (code == ExitFail) != c.fails.soft {
			t.Errorf("%s: StepExitCode(soft) = %d; want fails=%v", name, code, c.fails.soft)
		}
	}
}

// SoftFailed counts warn and inconclusive gates, not failed or skipped ones.
func TestSoftFailed(t *testing.T) {
	for _, c := range []struct {
		gates []Result
		want  bool
	}{
		{nil, false},
		{[]Result{{Status: Pass}, {Status: Skipped}, {Status: Fail}}, false},
		{[]Result{{Status: Pass}, {Status: Warn}}, true},
		{[]Result{{Status: Inconclusive}}, true},
	} {
		if got := SoftFailed(c.gates); got != c.want {
			t.Errorf("SoftFailed(%+v) = %v; want %v", c.gates, got, c.want)
		}
	}
}

type marked struct{ error }

func (marked) CouldNotRun() bool { return true }

// Errors before a verdict: bad input is 2, a failure to run (network, I/O other than a
// missing path, an error marked CouldNotRun) is 3.
func TestErrorExitCode(t *testing.T) {
	dir := t.TempDir()
	_, missing := os.Open(filepath.Join(dir, "nope.jsonl"))
	_, notDir := os.Create(filepath.Join(dir, "nope", "x.json"))
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"no error", nil, ExitPass},
		{"bad input", &eval.InputError{File: "results.jsonl", Line: 3, Msg: "bad"}, ExitBadInput},
		{"a plain error", errors.New("unknown dimension"), ExitBadInput},
		{"a missing file", fmt.Errorf("reading results: %w", missing), ExitBadInput},
		{"a missing directory", notDir, ExitBadInput},
		{"permission denied", &fs.PathError{Op: "open", Path: "/report.json", Err: syscall.EACCES}, ExitCouldNotRun},
		{"disk full", fmt.Errorf("writing the report: %w", &fs.PathError{Op: "write", Path: "r.json", Err: syscall.ENOSPC}), ExitCouldNotRun},
		{"network", fmt.Errorf("judge: %w", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}), ExitCouldNotRun},
		{"marked", fmt.Errorf("reading the base config: %w", marked{errors.New("502")}), ExitCouldNotRun},
	} {
		if got := ErrorExitCode(c.err); got != c.want {
			t.Errorf("%s: ErrorExitCode(%v) = %d; want %d", c.name, c.err, got, c.want)
		}
	}
}

// A gate shows at its own level: a failed gate, and an inconclusive one when the verdict
// is inconclusive and blocks, at failure; a warning, and an inconclusive gate that does
// not block, at warning; a pass or a skipped gate at none.
func TestGateLevel(t *testing.T) {
	for _, c := range []struct {
		verdict Verdict
		gate    Status
		want    Level
	}{
		{Verdict{Status: Fail, Blocks: true}, Fail, LevelFailure},
		{Verdict{Status: Inconclusive, Blocks: true}, Inconclusive, LevelFailure},
		{Verdict{Status: Inconclusive}, Inconclusive, LevelWarning},
		// A hard gate failed: the verdict does not say whether the inconclusive one would
		// have blocked on its own.
		{Verdict{Status: Fail, Blocks: true}, Inconclusive, LevelWarning},
		{Verdict{Status: Warn}, Warn, LevelWarning},
		{Verdict{Status: Inconclusive, Blocks: true}, Warn, LevelWarning},
		{Verdict{Status: Fail, Blocks: true}, Pass, LevelNone},
		{Verdict{Status: Pass}, Skipped, LevelNone},
	} {
		if got := c.verdict.GateLevel(Result{Status: c.gate}); got != c.want {
			t.Errorf("verdict %s (blocks %v), gate %s: GateLevel = %q; want %q", c.verdict.Status, c.verdict.Blocks, c.gate, got, c.want)
		}
	}
}
