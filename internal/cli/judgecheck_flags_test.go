package cli

import (
	"strings"
	"testing"
	"time"
)

// judge-check measures agreement between judgments of several outputs: --sample or
// --repeats under 2 is refused (exit 2, before any config is read or judge called),
// where 0 silently meant the default (50 outputs, 3 judgments).
func TestJudgeCheckRefusesTooFewSamplesOrRepeats(t *testing.T) {
	for _, args := range [][]string{{"--repeats", "0"}, {"--repeats", "1"}, {"--sample", "0"}, {"--sample", "-3"}} {
		_, stderr, code := runCLI(t, time.Now, append([]string{"judge-check", "--config", "does-not-exist.yaml"}, args...)...)
		if code != ExitBadInput || !strings.Contains(stderr, "want at least 2 of each") {
			t.Errorf("judge-check %v: exit %d, stderr %q; want 2 and the reason", args, code, stderr)
		}
	}
}

// baseline's --judge-sample and --judge-repeats likewise (unless --no-judge-check).
func TestBaselineRefusesTooFewJudgeSamplesOrRepeats(t *testing.T) {
	for _, args := range [][]string{{"--judge-repeats", "0"}, {"--judge-sample", "1"}} {
		_, stderr, code := runCLI(t, time.Now, append([]string{"baseline", "--config", "does-not-exist.yaml", "--out", "x.jsonl"}, args...)...)
		if code != ExitBadInput || !strings.Contains(stderr, "want at least 2 of each") {
			t.Errorf("baseline %v: exit %d, stderr %q; want 2 and the reason", args, code, stderr)
		}
	}
	_, stderr, _ := runCLI(t, time.Now, "baseline", "--config", "does-not-exist.yaml", "--out", "x.jsonl", "--judge-repeats", "0", "--no-judge-check")
	if strings.Contains(stderr, "want at least 2 of each") {
		t.Errorf("--no-judge-check: the repeats were still checked: %q", stderr)
	}
}
