package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/stats"
)

// The baseline's reliability measurement belongs to the judge the baseline was made
// with. When the judge's configuration changed since, the report shows no figure for
// it as if it were the current judge's: it says the dimension is unmeasured, names the
// change and the old judge's α, and that its drop alone cannot block. When only the
// provider's build moved, or nothing changed, the measured line stays.
func TestReliabilityOfAChangedJudgeIsSaidToBeUnmeasured(t *testing.T) {
	alpha := 0.81
	m := &reliability.Measurement{Sample: 50, Repeats: 3, Dimensions: []reliability.Dimension{
		{Name: "accuracy", Judge: "default", Weight: 1, Level: stats.LevelInterval, Alpha: &alpha, Variance: 0.02, Units: 50}}}
	cur := []reliability.Scored{{Name: "accuracy", Judges: []string{"default"}, Weight: 1}}
	for _, tc := range []struct {
		name       string
		changes    []reliability.Change
		unmeasured bool
	}{
		{"unchanged", nil, false},
		{"build only", []reliability.Change{{Judge: "default", What: []string{"served by a@fp1 → a@fp2"}}}, false},
		{"model", []reliability.Change{{Judge: "default", What: []string{"model a → b"}, Rejudgeable: true}}, true},
	} {
		rel, un := reliability.Current(m, tc.changes, cur)
		r := &Report{Comparison: &baseline.Comparison{JudgeReliability: rel, JudgeUnmeasured: un, JudgeChanges: tc.changes}}
		lines := strings.Join(r.judgeReliabilityLines(), "\n")
		measured := strings.Contains(lines, "self-agreement α 0.810 (interval)")
		said := strings.Contains(lines, `judge reliability · accuracy (default): unmeasured, the judge changed since the baseline (judge "default": model a → b); the baseline's self-agreement α 0.810 was the old judge's (default) and is not used, so its drop alone cannot block`)
		if measured == tc.unmeasured || said != tc.unmeasured {
			t.Errorf("%s: measured line %v, unmeasured line %v; want the %s one\n%s", tc.name, measured, said,
				map[bool]string{true: "unmeasured", false: "measured"}[tc.unmeasured], lines)
		}
	}
}
