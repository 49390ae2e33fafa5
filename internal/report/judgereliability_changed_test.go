package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/stats"
)

// The baseline's reliability measurement belongs to the judge the baseline was made
// with. When the judge's configuration changed since, the report says these figures are
// the old judge's, not the current one's; when only the provider's build moved, or
// nothing changed, it says nothing more.
func TestReliabilityOfAChangedJudgeIsSaidToBeTheOldOnes(t *testing.T) {
	alpha := 0.81
	m := &reliability.Measurement{Sample: 50, Repeats: 3, Dimensions: []reliability.Dimension{
		{Name: "accuracy", Judge: "default", Weight: 1, Level: stats.LevelInterval, Alpha: &alpha, Variance: 0.02, Units: 50}}}
	for _, tc := range []struct {
		name    string
		changes []reliability.Change
		said    bool
	}{
		{"unchanged", nil, false},
		{"build only", []reliability.Change{{Judge: "default", What: []string{"served by a@fp1 → a@fp2"}}}, false},
		{"model", []reliability.Change{{Judge: "default", What: []string{"model a → b"}, Rejudgeable: true}}, true},
	} {
		r := &Report{Comparison: &baseline.Comparison{JudgeReliability: m, JudgeChanges: tc.changes}}
		lines := r.judgeReliabilityLines()
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines: %q", tc.name, len(lines), lines)
		}
		if got := strings.Contains(lines[0], "measured with the baseline's judges, which changed since"); got != tc.said {
			t.Errorf("%s: says the figures are the old judge's: %v; want %v\n%s", tc.name, got, tc.said, lines[0])
		}
	}
}
