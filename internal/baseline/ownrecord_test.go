package baseline

import (
	"testing"

	"github.com/evalgate/evalgate/internal/stats"
)

// The baseline's own history record is left out of the run-level noise (its runs are
// counted already); other releases stay in, even when their spread is the same (every
// record of an all-pass suite has std 0). The run count and std identify the record
// only when a commit is missing on either side.
func TestOwnRecord(t *testing.T) {
	b := &Baseline{Runs: make([]RunAggregate, 3), Std: 0, Source: Source{SHA: "abc"}}
	noSHA := &Baseline{Runs: make([]RunAggregate, 3), Std: 0.01}
	for _, tc := range []struct {
		name string
		g    stats.RunGroup
		b    *Baseline
		want bool
	}{
		{"same commit", stats.RunGroup{Source: "abc", Runs: 3, Std: 0.5}, b, true},
		{"another release, same spread", stats.RunGroup{Source: "release-1", Runs: 3, Std: 0}, b, false},
		{"record without a commit, same spread", stats.RunGroup{Runs: 3, Std: 0}, b, true},
		{"record without a commit, other spread", stats.RunGroup{Runs: 3, Std: 0.02}, b, false},
		{"baseline without a commit, same spread", stats.RunGroup{Source: "r1", Runs: 3, Std: 0.01}, noSHA, true},
		{"baseline without a commit, other run count", stats.RunGroup{Source: "r1", Runs: 5, Std: 0.01}, noSHA, false},
	} {
		if got := ownRecord(tc.g, tc.b); got != tc.want {
			t.Errorf("%s: own %v; want %v", tc.name, got, tc.want)
		}
	}
}
