package gate

import "fmt"

// StableRuns is how many baseline runs it takes to tell a stable item from a flaky one
// well enough for the evidence method: with fewer, every item may be flaky as far as
// the baseline knows, and only large drops block.
const StableRuns = 3

// ThinBaseline says what a baseline of runs runs cannot measure, and how many runs
// would help; "" when it has StableRuns or more. `evalgate baseline` prints it as a
// warning and `evalgate check` as a note on the comparison.
func ThinBaseline(runs int) string {
	switch {
	case runs >= StableRuns:
		return ""
	case runs <= 1:
		return fmt.Sprintf("the baseline has 1 run: item stability can't be measured (an item that passed once may be flaky), so the regression gate reads every item as possibly flaky and blocks only large drops, and nothing measures how much a whole run can be worse than another, so beside one pull-request run a drop blocks once settle's re-runs repeat it (check --settle); the baseline's std is unknown; %d runs measure stability, 5 tell a 95 %% item from a stable one better (evalgate run --runs %d --out-dir DIR, then evalgate baseline with every run)", StableRuns, StableRuns)
	default:
		return fmt.Sprintf("the baseline has %d runs: item stability is measured roughly (an item that passed %d of %d may still be flaky); %d runs or more measure it (evalgate run --runs %d --out-dir DIR, then evalgate baseline with every run)", runs, runs, runs, StableRuns, StableRuns)
	}
}
