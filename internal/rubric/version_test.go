package rubric

import "testing"

func TestNextVersion(t *testing.T) {
	for in, want := range map[string]string{
		"scoringSystem/1.0.0":  "scoringSystem/1.1.0",
		"scoringSystem/2.9.14": "scoringSystem/2.10.0",
		"1.0.0":                "1.0.0", // not a scoring version: unchanged
		"scoringSystem/1.x.0":  "scoringSystem/1.x.0",
	} {
		if got := NextVersion(in); got != want {
			t.Errorf("NextVersion(%q) = %q; want %q", in, got, want)
		}
	}
}
