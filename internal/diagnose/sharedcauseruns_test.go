package diagnose_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diagnose"
)

// With several runs, a shared cause counts the items that failed in every run, as the
// dimension rules do (a mean of 0). Run 1's outputs are all broken JSON, run 2's all
// good: each item's correctness, schema and conciseness are (0 + 1)/2 = 0.5, no item
// fails a dimension in every run, so nothing is said of broken JSON; the old finding,
// read from run 1's outputs alone, said "the output is not a JSON object on all 6
// scored items". Broken in both runs, it is said, on all 6.
func TestSharedCauseOverRuns(t *testing.T) {
	var broken strings.Builder
	for _, id := range []string{"go-1", "go-2", "go-3", "go-4", "eat-1", "eat-2"} {
		fmt.Fprintf(&broken, `{"id": %q, "output": "went"}`+"\n", id)
	}
	none(t, diagnose.Run(nil, diagnose.Input{Scored: run(t, true, broken.String(), good(""))}), diagnose.RuleSharedCause)
	f := want(t, diagnose.Run(nil, diagnose.Input{Scored: run(t, true, broken.String(), broken.String())}), diagnose.RuleSharedCause)
	if !strings.HasPrefix(f.Message, "the output is not a JSON object on all 6 scored items:") {
		t.Errorf("message %q", f.Message)
	}
}
