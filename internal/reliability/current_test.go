package reliability

import (
	"slices"
	"testing"
)

// Which of the baseline's figures still describe the judges scoring now.
func TestCurrentKeepsOnlyTheMeasuredJudgesFigures(t *testing.T) {
	a := 0.9
	m := &Measurement{Sample: 10, Repeats: 3, Dimensions: []Dimension{
		{Name: "accuracy", Judge: "default", Weight: 0.5, Alpha: &a},
		{Name: "tone", Judge: "strict, lenient", Weight: 0.2, Alpha: &a},
		{Name: "gone", Judge: "default", Weight: 0.3, Alpha: &a},
	}}
	model := Change{Judge: "default", What: []string{"model a → b"}, Rejudgeable: true}
	build := Change{Judge: "default", What: []string{"served by a@1 → a@2"}}
	lenient := Change{Judge: "lenient", What: []string{"template x → y"}, Rejudgeable: true}
	acc := Scored{Name: "accuracy", Judges: []string{"default"}, Weight: 0.5}
	tone := Scored{Name: "tone", Judges: []string{"strict", "lenient"}, Weight: 0.2}
	for _, tc := range []struct {
		name                 string
		changes              []Change
		cur                  []Scored
		measured, unmeasured []string
	}{
		// "gone" is no longer judged: left out.
		{"nothing changed", nil, []Scored{acc, tone}, []string{"accuracy", "tone"}, nil},
		{"the provider's build only", []Change{build}, []Scored{acc, tone}, []string{"accuracy", "tone"}, nil},
		{"the model of accuracy's judge", []Change{model}, []Scored{acc, tone}, []string{"tone"}, []string{"accuracy"}},
		{"one panel reviewer", []Change{lenient}, []Scored{acc, tone}, []string{"accuracy"}, []string{"tone"}},
		// The same judges, but accuracy is now scored by another one.
		{"accuracy's judge reassigned", nil, []Scored{{Name: "accuracy", Judges: []string{"strict"}, Weight: 0.5}, tone}, []string{"tone"}, []string{"accuracy"}},
		{"a dimension judged since", nil, []Scored{{Name: "new", Judges: []string{"default"}}}, nil, nil},
	} {
		rel, un := Current(m, tc.changes, tc.cur)
		var got, gotUn []string
		if rel != nil {
			for _, d := range rel.Dimensions {
				got = append(got, d.Name)
			}
			if rel.Sample != 10 || rel.Repeats != 3 {
				t.Errorf("%s: sample %d × %d; want the baseline's 10 × 3", tc.name, rel.Sample, rel.Repeats)
			}
		}
		for _, u := range un {
			gotUn = append(gotUn, u.Dimension)
			if len(u.Why) == 0 || u.OldAlpha == nil || *u.OldAlpha != 0.9 {
				t.Errorf("%s: %+v; want why and the old α 0.9", tc.name, u)
			}
		}
		if !slices.Equal(got, tc.measured) || !slices.Equal(gotUn, tc.unmeasured) {
			t.Errorf("%s: measured %v, unmeasured %v; want %v, %v", tc.name, got, gotUn, tc.measured, tc.unmeasured)
		}
	}
	if rel, un := Current(nil, []Change{model}, []Scored{acc}); rel != nil || un != nil {
		t.Errorf("no measurement: %v, %v; want nothing measured and nothing unmeasured", rel, un)
	}
}
