package baseline

import (
	"fmt"

	"github.com/evalgate/evalgate/internal/rubric"
)

// Unbumped is a rubric that changed while its scoring version did not: the baseline's
// recorded runs were re-scored under it, and scores either side are another rubric's.
type Unbumped struct {
	// Version is the scoring version both sides name; FromHash and ToHash the
	// baseline's rubric hash and the candidate's.
	Version, FromHash, ToHash string
	// Runs is how many of the baseline's recorded runs were re-scored.
	Runs int
}

// Hashes is the rubric's change in a few words: "rubric sha256 98ab057d6a8c → bbc845df24ee".
func (u *Unbumped) Hashes() string {
	return fmt.Sprintf("rubric sha256 %.12s → %.12s", u.FromHash, u.ToHash)
}

// Advice is what to do: the version to write when the change is meant.
func (u *Unbumped) Advice() string {
	return fmt.Sprintf("when the change is meant, write `version: %s` under `scoring:`", rubric.NextVersion(u.Version))
}

// String is the warning on its own (Comparison.ScoringUnbumped).
func (u *Unbumped) String() string {
	return fmt.Sprintf("the scoring changed but its version did not (still %s; %s): the baseline's recorded runs (%d) were re-scored under the new rubric; %s",
		u.Version, u.Hashes(), u.Runs, u.Advice())
}
