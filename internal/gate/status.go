package gate

// Status is the outcome of one gate and of the whole verdict. gate is its only owner:
// report, ghaction and the command line read it, none of them sets it.
type Status string

// Statuses. A gate is pass, warn, inconclusive, fail or skipped; the verdict is pass,
// warn, inconclusive, fail or accepted.
const (
	// Pass: every gate holds.
	Pass Status = "pass"
	// Warn: a soft gate failed. The pull request may merge.
	Warn Status = "warn"
	// Inconclusive: the regression gate saw a drop larger than max_drop that the
	// suite's noise could explain, or a drop beyond the noise whose size may be over
	// max_drop. It blocks only with `regression.inconclusive: block`
	// (Verdict.Blocks says which); the report names the items to re-run to settle it.
	Inconclusive Status = "inconclusive"
	// Fail: a hard gate or the regression gate failed.
	Fail Status = "fail"
	// Accepted: only the regression gate blocked (by a drop or an inconclusive result
	// set to block), and a maintainer accepted it with the accept label.
	Accepted Status = "accepted"
	// Skipped: a gate that could not run (the regression gate without a baseline).
	Skipped Status = "skipped"
)

// Statuses lists every Status, in order of severity for a verdict (skipped last).
var Statuses = []Status{Pass, Warn, Accepted, Inconclusive, Fail, Skipped}

// InconclusivePolicy says what an inconclusive regression does: warn (the default,
// soft: exit 0, a neutral check titled "inconclusive") or block (exit 1, a failed check).
type InconclusivePolicy string

// Inconclusive policies, the values of `regression.inconclusive`.
const (
	InconclusiveWarn  InconclusivePolicy = "warn"
	InconclusiveBlock InconclusivePolicy = "block"
)
