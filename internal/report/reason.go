package report

import (
	"fmt"
	"strings"
)

// Reason says in a few words why an item failed. An item with several runs fails on
// how many of them failed, so its reason says that count first; the cause one run gave
// (the first failing run's) is named as that run's, without that run's own score: the
// item's score is the mean over its runs, which every list of items shows beside the
// reason (the comment's table of changed items through ScoredReason).
func (it Item) Reason() string {
	switch {
	case it.Missing:
		return "no result (missing)"
	case it.Pending:
		return "pending (all n/a or stale)"
	}
	if it.Runs > 1 {
		return it.runsReason()
	}
	switch {
	case it.CappedBy != "":
		return "capped by " + it.CappedBy
	case it.EvaluatorError != "":
		return "judge " + it.EvaluatorError
	case it.Why != "" && !strings.HasPrefix(it.Why, "score "):
		return it.Why // timed out, errored, or a pass-rule condition
	}
	if name, note := it.zeroDimension(); note != "" {
		return name + ": " + note
	} else if name != "" {
		return name + " = 0"
	}
	if it.Why != "" {
		return it.Why
	}
	return fmt.Sprintf("score %.3f", it.Score)
}

// ScoredReason is Reason where no score is shown beside it: an item with several runs
// adds its mean score ("failed 2 of 3 runs, the first: score < 0.8; mean score 0.467");
// one run's reason names its score already when the score is the cause.
func (it Item) ScoredReason() string {
	r := it.Reason()
	if it.Runs > 1 && !it.Missing && !it.Pending {
		r += fmt.Sprintf("; mean score %.3f", it.Score)
	}
	return r
}

// runsReason is Reason for an item with several runs: "failed 2 of 3 runs", then the
// cause. Its breakdown is the mean over the runs, so a dimension at 0 was 0 in every
// run; its Why is the first failing run's.
func (it Item) runsReason() string {
	failed := it.Runs - it.PassRuns
	head := fmt.Sprintf("failed %d of %d runs", failed, it.Runs)
	if it.MissingRuns > 0 {
		head += fmt.Sprintf(" (%d with no result)", it.MissingRuns)
	}
	first := ": "
	if failed > 1 {
		first = ", the first: "
	}
	switch {
	case it.CappedBy != "":
		return head + ": capped by " + it.CappedBy
	case it.EvaluatorError != "":
		return head + ": judge " + it.EvaluatorError
	case it.MissingRuns > 0 && strings.HasPrefix(it.Why, "no result"):
		return head // the first failing run is one with no result
	case it.Why != "" && !strings.HasPrefix(it.Why, "score "):
		return head + first + it.Why
	}
	if name, note := it.zeroDimension(); name != "" {
		z := name + " = 0 in every run"
		if failed == it.Runs {
			z = fmt.Sprintf("%s = 0 in all %d runs", name, it.Runs)
			if it.Runs == 2 {
				z = name + " = 0 in both runs"
			}
		}
		if note != "" {
			z += ": " + note
		}
		if failed == it.Runs && it.MissingRuns == 0 {
			return z // the count says it all
		}
		return head + ": " + z
	}
	if _, threshold, ok := strings.Cut(it.Why, " < "); ok {
		return head + first + "score < " + threshold
	}
	return head
}

// zeroDimension is the first dimension scored 0 and its note ("" when none is); a
// dimension n/a for the item has no score, so it is none.
func (it Item) zeroDimension() (name, note string) {
	for d, kv := range it.Breakdown {
		if it.isNA(d) {
			continue
		}
		if v, ok := kv.Value.(float64); ok && v == 0 {
			return kv.Key, it.Notes[kv.Key]
		}
	}
	return "", ""
}

// isNA says dimension d (Breakdown's order) does not apply to the item.
func (it Item) isNA(d int) bool { return d < len(it.NA) && it.NA[d] }
