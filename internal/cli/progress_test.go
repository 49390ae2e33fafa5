package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/testdata/testtools"
)

// tickingClock is a clock that moves by step at every reading: the progress meter
// reads it every 256 records, so a run of a few thousand records looks like one of
// many seconds, without waiting and whatever the machine's load.
func tickingClock(step time.Duration) func() time.Time {
	t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return func() time.Time {
		t = t.Add(step)
		return t
	}
}

// runCLI runs evalgate in-process on clock now and returns stdout, stderr and the
// exit code.
func runCLI(t *testing.T, now func() time.Time, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: now,
		GitSHA: func() string { return "abc" }}
	code := c.Main(append([]string{"evalgate"}, args...))
	return stdout.String(), stderr.String(), code
}

var progressLine = regexp.MustCompile(`(?m)^scoring (\S+) \(run (\d) of 2\): ([\d,]+) records, [\d,]+/s, [\d.ms]+ elapsed$`)

func TestProgressOnStderrForLongRuns(t *testing.T) {
	dir := benchDir(t)
	cfg := filepath.Join(dir, "evalgate.yaml")
	r1, r2 := filepath.Join(dir, "r1.jsonl"), filepath.Join(dir, "r2.jsonl")
	recs := benchRecords(2000)
	writeJSONL(t, r1, recs)
	writeJSONL(t, r2, recs)
	args := []string{"score", "--config", cfg, "--results", r1, "--results", r2, "--format", "json"}

	// One second per clock reading: past the 2 s delay after a few hundred records,
	// then a line every 5 readings (5 s).
	stdout, stderr, code := runCLI(t, tickingClock(time.Second), args...)
	if code != ExitPass {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	lines := progressLine.FindAllStringSubmatch(stderr, -1)
	if len(lines) < 2 {
		t.Fatalf("want progress lines for both runs on stderr; got:\n%s", stderr)
	}
	if first, last := lines[0], lines[len(lines)-1]; first[2] != "1" || first[1] != r1 || last[2] != "2" || last[1] != r2 {
		t.Errorf("progress should name run 1 (%s) then run 2 (%s); got:\n%s", r1, r2, stderr)
	}
	// The last line counts both runs' records: 2 × 2,000.
	if !strings.Contains(stderr, "\nscoring: 4,000 records in ") {
		t.Errorf("want a final line counting 4,000 records; stderr:\n%s", stderr)
	}
	if strings.Contains(stdout, "records") || !strings.HasPrefix(stdout, "{") {
		t.Errorf("progress leaked onto stdout (the JSON report): %.200q", stdout)
	}

	// --quiet: the same long run prints nothing on stderr.
	stdoutQ, stderrQ, code := runCLI(t, tickingClock(time.Second), append(args, "--quiet")...)
	if code != ExitPass || stderrQ != "" {
		t.Errorf("--quiet: exit %d, stderr %q; want 0 and nothing", code, stderrQ)
	}
	if stdoutQ == "" {
		t.Error("--quiet: no report on stdout")
	}
	// -q is --quiet, as in most command-line tools.
	if _, stderrQ, code := runCLI(t, tickingClock(time.Second), append(args, "-q")...); code != ExitPass || stderrQ != "" {
		t.Errorf("-q: exit %d, stderr %q; want 0 and nothing", code, stderrQ)
	}

	// A short run (the clock barely moves) prints nothing: goldens stay as they are.
	_, stderrS, _ := runCLI(t, tickingClock(time.Millisecond), args...)
	if stderrS != "" {
		t.Errorf("a short run printed on stderr: %q", stderrS)
	}
}

func TestProgressOnMergeAndBaseline(t *testing.T) {
	dir := benchDir(t)
	cfg := filepath.Join(dir, "evalgate.yaml")
	res := filepath.Join(dir, "r.jsonl")
	writeJSONL(t, res, benchRecords(3000))
	var shards []string
	for _, sh := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "shard"+sh[:1]+".json")
		if _, stderr, code := runCLI(t, tickingClock(time.Millisecond), "score", "--config", cfg, "--results", res, "--shard", sh, "--format", "json", "--out", out); code != ExitPass {
			t.Fatalf("score --shard %s: exit %d\n%s", sh, code, stderr)
		}
		shards = append(shards, out)
	}
	_, stderr, code := runCLI(t, tickingClock(time.Second), append([]string{"merge", "--config", cfg, "--no-baseline", "--format", "json", "--out", filepath.Join(dir, "merged.json")}, shards...)...)
	if code != ExitPass {
		t.Fatalf("merge: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "merging: reading "+shards[0]+": ") || !strings.Contains(stderr, "merging: 3,000 items in ") {
		t.Errorf("merge: want progress naming the shard read and a final count of 3,000 items; stderr:\n%s", stderr)
	}
	_, stderr, _ = runCLI(t, tickingClock(time.Second), "merge", "--quiet", "--config", cfg, "--no-baseline", "--format", "json", "--out", filepath.Join(dir, "merged2.json"), shards[0], shards[1])
	if strings.Contains(stderr, "merging") {
		t.Errorf("merge --quiet printed progress:\n%s", stderr)
	}

	base := filepath.Join(dir, "baselines", "bench.jsonl") // a directory of baselines only (it gets an index)
	stdout, stderr, code := runCLI(t, tickingClock(time.Second), "baseline", "--config", cfg, "--results", res, "--results", res, "--results", res, "--out", base)
	if code != ExitPass {
		t.Fatalf("baseline: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "scoring: 9,000 records in ") || strings.Contains(stdout, "records,") {
		t.Errorf("baseline: want progress on stderr only; stdout %q\nstderr:\n%s", stdout, stderr)
	}
	if _, err := os.Stat(base); err != nil {
		t.Error(err)
	}
}

// evalgate run shows the runner's progress (a line every tenth of the suite) unless
// --quiet.
func TestRunQuiet(t *testing.T) {
	testtools.Require(t, "the tutor example's sut.py", "python3")
	cfg := "../../examples/tutor-capstone/evalgate.yaml"
	for _, quiet := range []bool{false, true} {
		args := []string{"run", "--config", cfg, "--out", filepath.Join(t.TempDir(), "r.jsonl")}
		if quiet {
			args = append(args, "--quiet")
		}
		stdout, stderr, code := runCLI(t, time.Now, args...)
		if code != ExitPass || !strings.Contains(stdout, "20 result(s)") {
			t.Fatalf("run %v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
		// 20 items: the last line of the runner's progress is "run: 20/20 (100%)".
		if shown := strings.Contains(stderr, "run: 20/20 (100%)"); shown == quiet {
			t.Errorf("run, quiet %v: stderr %q", quiet, stderr)
		}
	}
}
