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

// A judge that gave one value to every sampled output has an undefined α (Krippendorff's
// expected disagreement is 0). The line says so once, with the level, and says what it
// means for the gate (gate.judgeNoise holds only a defined α under the floor), instead of
// "α undefined (every verdict the same) (interval)".
func TestUndefinedSelfAgreementSaysItIsNotUnderTheFloor(t *testing.T) {
	one := 1.0
	m := &reliability.Measurement{Sample: 20, Repeats: 3, Dimensions: []reliability.Dimension{
		{Name: "faithfulness", Judge: "default", Weight: 0.3, Level: stats.LevelInterval, Exact: &one, Units: 20}}}
	lines := strings.Join(ReliabilityLines(m, 0.667), "\n")
	want := "judge reliability · faithfulness (default): self-agreement α undefined (interval: every verdict of the sample the same, so not under the floor), exact agreement 100.0%, verdict std 0.000"
	if !strings.Contains(lines, want) {
		t.Errorf("got\n%s\nwant a line\n%s", lines, want)
	}
}
