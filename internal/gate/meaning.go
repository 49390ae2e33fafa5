package gate

// What a verdict means to everyone who shows or enforces it. Renderers, the check run,
// the action's step and the command line ask here, and none of them maps a status
// itself (TestOnlyGateOwnsTheVerdict checks the source).

// Conclusion is a check run's conclusion (the GitHub Checks API's values).
type Conclusion string

// Conclusions a verdict can have.
const (
	ConclusionSuccess Conclusion = "success"
	ConclusionNeutral Conclusion = "neutral"
	ConclusionFailure Conclusion = "failure"
)

// Level is an annotation's level (the GitHub Checks API's values).
type Level string

// Annotation levels.
const (
	LevelNone    Level = "" // no annotation
	LevelNotice  Level = "notice"
	LevelWarning Level = "warning"
	LevelFailure Level = "failure"
)

// FailOn says which verdicts fail the action's step (its fail-on input). The check
// run's conclusion does not depend on it.
type FailOn string

// FailOn values.
const (
	FailOnHard  FailOn = "hard"  // the verdict blocks
	FailOnSoft  FailOn = "soft"  // also a soft gate failed, or an inconclusive regression warned
	FailOnNever FailOn = "never" // only bad input (or could not run) fails the step
)

// verdictWords say what a verdict status means for the pull request.
var verdictWords = map[Status]string{Pass: "passed", Warn: "passed with warnings", Inconclusive: "inconclusive",
	Fail: "blocked", Accepted: "regression accepted"}

// Word is what a verdict of status s means for the pull request, blocking aside
// ("passed", "passed with warnings", "inconclusive", "blocked", "regression accepted").
func (s Status) Word() string { return verdictWords[s] }

// Word says in a word or three what the verdict means for the pull request: "passed",
// "passed with warnings", "inconclusive", "inconclusive, blocked", "blocked" or
// "regression accepted".
func (v *Verdict) Word() string {
	if v.Status == Inconclusive && v.Blocks {
		return "inconclusive, blocked"
	}
	return v.Status.Word()
}

// Conclusion is the check run's conclusion, whatever fail-on says: a verdict that blocks
// fails the check (fail, and inconclusive under `regression.inconclusive: block`); an
// inconclusive one that does not block and an accepted one are neutral; pass and warn
// succeed.
func (v *Verdict) Conclusion() Conclusion {
	switch {
	case v.Blocks:
		return ConclusionFailure
	case v.Status == Inconclusive, v.Status == Accepted:
		return ConclusionNeutral
	case v.Status == Pass, v.Status == Warn:
		return ConclusionSuccess
	}
	return ConclusionFailure
}

// AnnotationLevel is the level of the annotation that states the verdict: failure when
// it blocks, warning for warn and a non-blocking inconclusive, notice for accepted, and
// none for pass.
func (v *Verdict) AnnotationLevel() Level {
	switch {
	case v.Blocks:
		return LevelFailure
	case v.Status == Warn, v.Status == Inconclusive:
		return LevelWarning
	case v.Status == Accepted:
		return LevelNotice
	}
	return LevelNone
}

// ItemLevel is the level of the annotations on the items that fail: failure when the
// verdict blocks, else warning.
func (v *Verdict) ItemLevel() Level {
	if v.Blocks {
		return LevelFailure
	}
	return LevelWarning
}

// GateLevel is the level at which one of the verdict's gates shows on its own (a JUnit
// test case): failure for a gate that failed, and for an inconclusive gate when the
// verdict is inconclusive and blocks (`regression.inconclusive: block`); warning for a
// gate that warned, and for an inconclusive gate that does not block (or whose block a
// failed gate already made: the verdict does not record the policy); none for a gate
// that passed or was skipped.
func (v *Verdict) GateLevel(g Result) Level {
	switch {
	case g.Status == Fail, g.Status == Inconclusive && v.Status == Inconclusive && v.Blocks:
		return LevelFailure
	case g.Status == Warn, g.Status == Inconclusive:
		return LevelWarning
	}
	return LevelNone
}

// SoftFailed says a soft gate failed or the regression gate was inconclusive (whether
// or not that blocks): what `fail-on: soft` fails the step on besides a blocking verdict.
// gates are the verdict's gate results (Verdict.Gates, or a report's).
func SoftFailed(gates []Result) bool {
	for _, g := range gates {
		if g.Status == Warn || g.Status == Inconclusive {
			return true
		}
	}
	return false
}

// FailsStep says whether the action's step fails under fail-on f, softFailed being
// SoftFailed of the verdict's gates. An unknown f counts as hard.
func (v *Verdict) FailsStep(f FailOn, softFailed bool) bool {
	switch f {
	case FailOnNever:
		return false
	case FailOnSoft:
		return v.Blocks || softFailed
	}
	return v.Blocks
}

// StepExitCode is the action step's exit code under fail-on f: ExitFail when the step
// fails, else ExitPass.
func (v *Verdict) StepExitCode(f FailOn, softFailed bool) int {
	if v.FailsStep(f, softFailed) {
		return ExitFail
	}
	return ExitPass
}
