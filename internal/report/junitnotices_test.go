package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
)

// The JUnit file says first what every other format says first: the headline (a
// missing baseline's "not compared" with its reason) and the notices (a changed judge, a
// scoring change without a version bump, the judges' reliability), each once.
func TestJUnitCarriesTheHeadlineAndNotices(t *testing.T) {
	r := &Report{Suite: "s", Verdict: gate.Verdict{Status: gate.Pass, NoBaseline: "no baseline: nothing to compare with", MissingBaseline: "baselines/s.jsonl"}}
	r.AddWarning(NoticeJudgeChanged, `⚠ changed judge: judge "default": model a → b`)
	r.AddWarning(NoticeScoringUnbumped, "the scoring changed but its version did not; write `version: scoringSystem/1.1.0`")
	r.AddNotice(NoticeNote, "judge reliability · accuracy (default): self-agreement α 0.251 (interval): under the floor, so its drop alone cannot block")
	doc, _ := readJUnit(t, r)
	out := doc.Suites[0].SystemOut
	for _, want := range []string{
		"evalgate · s: not compared — the regression gate did not run: the baseline baselines/s.jsonl does not exist; the other gates pass\n",
		"warning: ⚠ changed judge: judge \"default\": model a → b\n",
		"warning: the scoring changed but its version did not; write version: scoringSystem/1.1.0\n",
		"note: judge reliability · accuracy (default): self-agreement α 0.251",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("system-out lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "changed judge"); n != 1 {
		t.Errorf("the changed judge is said %d times; want once:\n%s", n, out)
	}
}
