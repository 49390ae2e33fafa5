package ghaction

import "testing"

func TestRefreshBranch(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"baselines/tutor.json":          "evalgate/refresh/baselines/tutor",
		"examples/a b/baseline.v2.json": "evalgate/refresh/examples/a-b/baseline.v2",
	} {
		if got := refreshBranch(in); got != want {
			t.Errorf("refreshBranch(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarker(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"tutor-capstone":    "<!-- evalgate:suite=tutor-capstone -->",
		"evil --> <b>x</b>": "<!-- evalgate:suite=evil-b-x-/b- -->",
	} {
		if got := marker(in); got != want {
			t.Errorf("marker(%q) = %q, want %q", in, got, want)
		}
	}
}
