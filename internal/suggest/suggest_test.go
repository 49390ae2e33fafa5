package suggest

import "testing"

func TestClosest(t *testing.T) {
	t.Parallel()
	metrics := []string{"mean_score", "pass_rate", "latency_e2e_p50_ms", "latency_e2e_p95_ms", "capped_items"}
	tests := []struct {
		word    string
		choices []string
		want    string
	}{
		{"mean_scroe", metrics, "mean_score"}, // a transposition: 2 edits
		{"Pass_Rate", metrics, "pass_rate"},   // case does not count
		{"capped", metrics, "capped_items"},   // contained in exactly one choice
		{"latency", metrics, ""},              // contained in two: no guess
		{"throughput", metrics, ""},           // nothing near
		{"containz", []string{"contains", "exact", "regex"}, "contains"},
		{"wieght", []string{"name", "weight", "scorer"}, "weight"},
		{"x", []string{"name", "weight"}, ""}, // 1 letter: every short name is 2 edits away, none shares a letter
		{"", metrics, ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.word, tt.choices); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	t.Parallel()
	if got, want := DidYouMean("gradign", []string{"scoring", "grading"}), `did you mean "grading"? `; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := DidYouMean("zzzzzz", []string{"scoring", "grading"}); got != "" {
		t.Errorf("got %q, want none", got)
	}
}
