package cli_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
)

// The judge reliability check of `evalgate baseline` (and of `evalgate judge-check`)
// judges the sample once per repeat; its progress says which repeat it is on, where it
// used to print three "judge: …" lines that read like the release's own judging.
// --judge-sample 10 with the default 3 repeats: each repeat is 10 calls, a plain line
// per call (a tenth of 10) and a final one at 10/10.
func TestJudgeReliabilityProgressNamesTheRepeat(t *testing.T) {
	srv := scoringJudge(t, func(_ string, truth, _ int, _ string) int { return truth })
	cfg := judgedProject(t, "judge-a")
	code, _, stderr := runWithEnv(t, judgeEnv(srv), "baseline", "--config", cfg, "--judge-sample", "10")
	if code != cli.ExitPass {
		t.Fatalf("baseline: exit %d\n%s", code, stderr)
	}
	for r := 1; r <= 3; r++ {
		for _, want := range []string{fmt.Sprintf("judge reliability, repeat %d of 3: 1/10 (10%%)\n", r),
			fmt.Sprintf("judge reliability, repeat %d of 3: 10/10 (100%%)\n", r)} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
	}
	// The release's own judging (30 distinct outputs) keeps the judge's label.
	if !strings.Contains(stderr, "judge: 30/30 (100%)\n") {
		t.Errorf("the release's judging lost its label:\n%s", stderr)
	}
	if strings.Contains(stderr, "judge: 10/10") {
		t.Errorf("a reliability repeat without its label:\n%s", stderr)
	}
}
