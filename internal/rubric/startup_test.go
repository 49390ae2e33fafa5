package rubric

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// The package's start-up allocates little: the safety scorer's patterns, the costliest
// regular expressions in the program, are compiled when a safety dimension is built,
// not at start-up (every command pays for start-up, most never score safety).
// GODEBUG=inittrace=1 makes the runtime print each package's start-up allocations; the
// test binary is run again with it and no test.
//
// Measured (go1.26, amd64): 338,992 bytes in 2,524 allocations with the patterns
// compiled at start-up, 71,136 bytes in 974 without. The bound, 128 KiB, sits between.
func TestStartupAllocatesLittle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^init github\.com/evalgate/evalgate/internal/rubric @.* ([0-9]+) bytes, ([0-9]+) allocs$`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no start-up line for the package in:\n%s", out)
	}
	bytes, _ := strconv.Atoi(string(m[1]))
	if bytes > 128<<10 {
		t.Errorf("the package's start-up allocates %d bytes (%s allocations); want at most 128 KiB", bytes, m[2])
	}
	// The patterns still compile, once, when a safety dimension is built.
	if a, b := safetyPatterns(), safetyPatterns(); a != b || len(a.categories) != len(SafetyCategories) {
		t.Errorf("safetyPatterns: %d categories compiled, want %d, once", len(a.categories), len(SafetyCategories))
	}
}
