package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/stats"
)

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
