package stats

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnstable(t *testing.T) {
	t.Parallel()
	rates := []float64{1, 0, 2.0 / 3, 1.0 / 3, 0.5, 1}
	// Only rates strictly inside (0, 1) are unstable: indices 2, 3 and 4.
	if diff := cmp.Diff([]int{2, 3, 4}, UnstableItems(rates)); diff != "" {
		t.Errorf("UnstableItems (-want +got):\n%s", diff)
	}
	if UnstableItems([]float64{0, 1}) != nil {
		t.Error("UnstableItems of stable items is not nil")
	}
}
