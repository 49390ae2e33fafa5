package gate

// Exit codes of every evalgate command: the one table. Later cases are added here and
// nowhere else.
//
//	| code | when                                                            |
//	|------|-----------------------------------------------------------------|
//	| 0    | pass, warn, accepted, inconclusive with `inconclusive: warn`    |
//	| 1    | fail, inconclusive with `inconclusive: block`                   |
//	| 1    | the baseline the config names is missing and required           |
//	|      | (`require_baseline: true`, or the action's `require-baseline`), |
//	|      | except on the pull request that adds evalgate                   |
//	| 2    | bad usage or bad input (nothing was decided)                    |
const (
	ExitPass     = 0
	ExitFail     = 1
	ExitBadInput = 2
)

// ExitCode is the process exit code for the verdict.
func (v *Verdict) ExitCode() int {
	if v.Blocks {
		return ExitFail
	}
	return ExitPass
}
