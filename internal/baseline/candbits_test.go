package baseline

import (
	"testing"

	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/stats"
)

// snapshot builds a saved distribution from per-item, per-run pass/fail scores.
func snapshot(scores [][]float64) *Baseline {
	runs := len(scores[0])
	b := &Baseline{SchemaVersion: SchemaVersion, Runs: make([]RunAggregate, runs), Items: make([]Item, len(scores))}
	for i, s := range scores {
		bits := make([]byte, runs)
		passes := 0
		for r, x := range s {
			bits[r] = "01"[int(x)]
			passes += int(x)
			b.Runs[r].MeanScore += x / float64(len(scores))
		}
		mean := float64(passes) / float64(runs)
		b.Items[i] = Item{ID: string(rune('a'+i/26)) + string(rune('a'+i%26)), Runs: runs, Score: mean, PassRate: mean,
			ScoreStd: rubric.Round9(stats.SampleStd(s)), PassBits: string(bits)}
	}
	return b
}

// The candidate's per-run scores reach the run-level noise: 30 items passed all three
// baseline runs and 6 flipped, so the baseline's runs cannot show a shift on the stable
// items (τ̂²_w from them is 0 here). In the candidate's three runs 8 stable items failed
// run 0 together: read from the candidate's runs, the weighted component is positive,
// on their 2 degrees of freedom. Without the candidate's per-run scores (a graded
// item among them), the baseline's reading stands.
func TestCandidateRunsMeasureTheWeightedComponent(t *testing.T) {
	var base, cand [][]float64
	for i := range 36 {
		switch {
		case i < 30:
			base = append(base, []float64{1, 1, 1})
			if i < 8 {
				cand = append(cand, []float64{0, 1, 1})
			} else {
				cand = append(cand, []float64{1, 1, 1})
			}
		default:
			f := [][]float64{{1, 0, 1}, {0, 1, 1}, {1, 1, 0}}[i%3]
			base, cand = append(base, f), append(cand, f)
		}
	}
	c, err := CompareSnapshots(snapshot(base), snapshot(cand), "b.json")
	if err != nil {
		t.Fatal(err)
	}
	rn := c.Evidence.RunNoise
	if rn == nil || rn.Weighted <= 0 || rn.WeightedDF != 2 {
		t.Fatalf("run noise %+v; want a positive weighted component on the candidate's 2 df", rn)
	}
	graded := snapshot(cand)
	graded.Items[35].Score, graded.Items[35].PassRate = 0.5, 2.0/3
	c, err = CompareSnapshots(snapshot(base), graded, "b.json")
	if err != nil {
		t.Fatal(err)
	}
	if rn := c.Evidence.RunNoise; rn == nil || rn.Weighted != 0 {
		t.Errorf("without every item's per-run scores: %+v; want the baseline's weighted component, 0", rn)
	}
}
