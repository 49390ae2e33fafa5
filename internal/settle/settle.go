package settle

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/rubric"
)

// Look is what one decision says, with every re-run so far counted.
type Look struct {
	// Outcome is the regression decision's: pass, inconclusive or fail (at the level
	// the look was asked at).
	Outcome gate.Status
	// Figure is the decision in a few words, for the round's line: "estimated drop
	// 6.3 pts > 2.0 pts, p = 0.004 < 0.0035".
	Figure string
	// Evidence are the items that carried the decision, strongest first.
	Evidence []string
	// Noisy are the items whose noise the estimate carries most (NoisyItems): re-run
	// after the evidence, they narrow the estimate's interval.
	Noisy []string
	// SizeUnsure says the drop stands out from the noise but its size is unsure (its
	// interval reaches over max_drop from under it): the next round re-runs the noisy
	// items beside the evidence. Otherwise the drop's size is over max_drop and only
	// whether it stands out is open, which the evidence items' re-runs settle alone.
	SizeUnsure bool
	// Significant says the test already rejects "no drop": with SizeUnsure, the size
	// is all that is open, and the evidence items' re-runs (which the estimate does not
	// read: stats.Observation.Flipped) add nothing to it, so the round re-runs the noisy
	// items alone.
	Significant bool
	// TotalUSD is what the pull request's model calls cost so far (runs, re-runs and
	// judges); nil when unknown.
	TotalUSD *float64
	// Flipped counts the items that carried the decision but flipped between the
	// baseline's runs, left out of Evidence (RerunEvidence): a round that re-runs the
	// evidence alone re-runs as many noisy items in their place, chosen by the
	// baseline alone.
	Flipped int
	// Confirm says the first look's pass is in doubt (gate.RegressionDecision.Unsure),
	// or its fail stands on one look over thin runs (Unreplicated): it re-runs its
	// Evidence once, and the look after that round decides.
	Confirm bool
	// Unsettleable says why re-running cannot conclude this decision (a judge under
	// the reliability floor carried the drop); "" when it can.
	Unsettleable string
}

// Decider decides the regression gate with every re-run made so far, its one-sided
// test at level.
type Decider interface {
	Look(ctx context.Context, level float64) (Look, error)
}

// Rerunner runs each of ids once more, spending at most maxUSD (0: no dollar limit,
// else a limit it must keep to when it can price calls before they start). round
// counts from 1. The runs it made are what the next Look reads.
type Rerunner interface {
	Rerun(ctx context.Context, round int, ids []string, maxUSD float64) error
}

// Options are settle's limits and what it starts from.
type Options struct {
	// Items are the compared items, in the order extra ones are picked when the
	// evidence items alone do not settle it.
	Items []string
	// ItemRuns are the candidate's item-runs before settling (items × runs): the
	// information the first look has.
	ItemRuns int
	// Budget is the extra item-runs settle may make; DefaultBudget(len(Items)) when 0.
	Budget int
	// MaxCostUSD caps the re-runs' cost in dollars (0: no cap).
	MaxCostUSD float64
	// Timeout caps the wall-clock time of the rounds, from when the first look has
	// decided, read from Now (0: no limit). The looks themselves are never cut by it.
	Timeout time.Duration
	Now     func() time.Time
	// Alpha is the total one-sided level (gate.Alpha when 0).
	Alpha float64
}

// MinDefaultBudget is the fewest extra item-runs the default budget gives. In a small
// suite 20 % is too few to conclude anything: where every baseline run passed every
// item, a stable item that newly fails is chance until its re-runs have failed about
// five times (one look's p-value 0.27, then 0.19, 0.083, …, in the 8-item newcomer's
// case, which concludes after 5–6 rounds at budgets from 5 to 20, and after 5–6 with 12
// items), and 20 % of 8 items is 2 re-runs. A larger floor is not better: the levels of
// the looks are spent over the whole budget, so each look is tested at less (a 24-item
// suite's 5-item break on a one-run baseline concluded at budgets 5, 6 and 8, not at 7, 9
// or 10, as its flaky items fell into the rounds).
const MinDefaultBudget = 8

// DefaultBudget is 20 % of the suite's items, rounded up, and at least
// MinDefaultBudget: from 40 items on, 20 %.
func DefaultBudget(items int) int {
	return max(MinDefaultBudget, (items*20+99)/100)
}

// CannotRerun is a Rerun error that says the tool cannot re-run the items asked for
// (a promptfoo test without a description, which --filter-pattern cannot select):
// settling stops there as Unsettleable, with Why, and the verdict stands as it is,
// rather than the check failing.
type CannotRerun struct{ Why string }

func (e *CannotRerun) Error() string { return e.Why }

// CostCut is a Rerun error that says the dollar cap (maxUSD) stopped the round: only
// the first Ran of the ids were run, and their results are kept for the next look. The
// cap refuses a call whose worst case (its prompt and max_tokens) it cannot cover, so
// a round can be cut, or refused whole, while the cost per item-run seen so far still
// fits: settling then stops as CostSpent, after a look at what ran, rather than the
// check failing on a round that wrote nothing.
type CostCut struct{ Ran int }

func (e *CostCut) Error() string {
	return fmt.Sprintf("max_cost_usd cannot cover the next re-run's worst case: %d item(s) of the round ran", e.Ran)
}

// Stop says why settling ended.
type Stop string

// Reasons settling ends.
const (
	Decided        Stop = "decided"          // the verdict concluded: pass or fail
	BudgetSpent    Stop = "budget spent"     // every extra item-run was used
	CostSpent      Stop = "cost spent"       // max_cost_usd reached
	TimedOut       Stop = "timed out"        // the wall-clock limit passed
	Unsettleable   Stop = "cannot settle"    // Look.Unsettleable
	NothingToRerun Stop = "nothing to rerun" // no item to re-run
)

// Round is one re-run and the look after it.
type Round struct {
	// Items are the items re-run, once each.
	Items []string `json:"items"`
	// ItemRuns are the extra item-runs the round made: one per item re-run.
	ItemRuns int `json:"item_runs"`
	// Level is the one-sided level the look after the round tested at.
	Level   float64     `json:"level"`
	Outcome gate.Status `json:"outcome"`
	Figure  string      `json:"figure"`
	// CostUSD is what the round cost in dollars (rounded to 1e-9, as the report's other
	// dollar figures); nil when unknown.
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// Result is what settling did.
type Result struct {
	// Level is the first look's level, Initial its outcome and figure.
	Level   float64     `json:"level"`
	Initial gate.Status `json:"initial"`
	Figure  string      `json:"figure"`
	Rounds  []Round     `json:"rounds,omitempty"`
	// Outcome is the last look's.
	Outcome gate.Status `json:"outcome"`
	Stop    Stop        `json:"stop"`
	// Why is the detail of Stop ("a judge under the reliability floor ...").
	Why string `json:"why,omitempty"`
	// ItemRuns are the extra item-runs made, of Budget.
	ItemRuns int `json:"item_runs"`
	Budget   int `json:"budget"`
	// CostUSD is what the re-runs cost (rounded to 1e-9; nil when unknown), of
	// MaxCostUSD (0: no cap).
	CostUSD    *float64 `json:"cost_usd,omitempty"`
	MaxCostUSD float64  `json:"max_cost_usd,omitempty"`
	// Elapsed is the wall-clock time the rounds took (from the first look's decision),
	// of Timeout (0: no limit); 0 in a report
	// pinned by SOURCE_DATE_EPOCH or --run-id, which records no wall-clock time.
	Elapsed time.Duration `json:"elapsed_ns"`
	Timeout time.Duration `json:"timeout_ns,omitempty"`
}

// Run settles: it decides once at the first look's level and, while the decision is
// inconclusive and no limit is reached, re-runs the evidence items (or, when it names
// none, others, the least re-run first) and decides again at the next look's level. A Rerun error that
// is the context's ends settling as timed out; any other error is returned.
//
// Timeout limits the rounds alone: its clock starts when the first look has decided,
// and only the re-runs run under its deadline. The first look (the check's own
// scoring) and the look after each round are never cut by it: a look cut midway would
// fail the check rather than settle it less.
func Run(ctx context.Context, d Decider, r Rerunner, o Options) (Result, error) {
	if o.Budget <= 0 {
		o.Budget = DefaultBudget(len(o.Items))
	}
	if o.Alpha <= 0 {
		o.Alpha = gate.Alpha
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ItemRuns <= 0 {
		o.ItemRuns = max(1, len(o.Items))
	}
	res := Result{Budget: o.Budget, MaxCostUSD: o.MaxCostUSD, Timeout: o.Timeout}
	frac := func(used int) float64 { return float64(o.ItemRuns+used) / float64(o.ItemRuns+o.Budget) }
	sp := NewSpending(o.Alpha)
	level := func(used int) float64 { return sp.Next(frac(used)) }
	res.Level = level(0)
	look, err := d.Look(ctx, res.Level)
	if err != nil {
		return res, err
	}
	res.Initial, res.Figure, res.Outcome = look.Outcome, look.Figure, look.Outcome
	start := o.Now()
	rctx := ctx // the re-runs' context: under the timeout's deadline
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	first := look.TotalUSD
	reruns := map[string]int{}
	perRun := costPerItemRun(first, o.ItemRuns)
	confirm := look.Confirm && (look.Outcome == gate.Pass || look.Outcome == gate.Fail)
	for {
		res.Elapsed = o.Now().Sub(start)
		stop, why := limit(look, res, o, perRun)
		if stop == Decided && confirm && len(res.Rounds) == 0 {
			stop = "" // a pass in doubt or a fail on thin runs: one round before it stands
		}
		if stop != "" {
			res.Stop, res.Why = stop, why
			return res, nil
		}
		size := roundSize(look, res, o, perRun)
		ids := pick(append(roundEvidence(look), roundNoisy(look)...), o.Items, reruns, size)
		if len(ids) == 0 {
			res.Stop = NothingToRerun
			return res, nil
		}
		maxUSD := 0.0
		if o.MaxCostUSD > 0 {
			maxUSD = o.MaxCostUSD - valueOr(res.CostUSD)
		}
		cut := false
		if err := r.Rerun(rctx, len(res.Rounds)+1, ids, maxUSD); err != nil {
			var cannot *CannotRerun
			if errors.As(err, &cannot) {
				res.Elapsed, res.Stop, res.Why = o.Now().Sub(start), Unsettleable, cannot.Why
				return res, nil
			}
			var cc *CostCut
			switch {
			case errors.As(err, &cc) && cc.Ran <= 0:
				res.Elapsed, res.Stop, res.Why = o.Now().Sub(start), CostSpent, costCutWhy
				return res, nil
			case errors.As(err, &cc):
				ids, cut = ids[:min(cc.Ran, len(ids))], true
				err = nil
			}
			if rctx.Err() != nil && errors.Is(err, rctx.Err()) {
				res.Elapsed, res.Stop, res.Why = o.Now().Sub(start), TimedOut, stoppedWhy(rctx.Err(), len(res.Rounds)+1)
				return res, nil
			}
			if err != nil {
				return res, fmt.Errorf("settle: round %d: %w", len(res.Rounds)+1, err)
			}
		}
		for _, id := range ids {
			reruns[id]++
		}
		res.ItemRuns += len(ids)
		round := Round{Items: ids, ItemRuns: len(ids), Level: level(res.ItemRuns)}
		before := res.CostUSD
		if look, err = d.Look(ctx, round.Level); err != nil {
			return res, err
		}
		round.Outcome, round.Figure = look.Outcome, look.Figure
		res.CostUSD = nil
		if first != nil && look.TotalUSD != nil {
			c := rubric.Round9(math.Max(0, *look.TotalUSD-*first))
			res.CostUSD = &c
			rc := rubric.Round9(c - valueOr(before))
			round.CostUSD = &rc
		}
		res.Rounds = append(res.Rounds, round)
		res.Outcome = look.Outcome
		if cut && look.Outcome == gate.Inconclusive {
			res.Elapsed, res.Stop, res.Why = o.Now().Sub(start), CostSpent, costCutWhy
			return res, nil
		}
	}
}

// costCutWhy is why settling stopped when the dollar cap refused a re-run.
const costCutWhy = "what is left of max_cost_usd cannot cover the next re-run's worst case"

// limit is why settling stops before another round, or "".
// stoppedWhy says why a round was stopped, for a reader: the wall-clock limit passed
// (context.DeadlineExceeded), or the check was cancelled; its re-runs are not counted.
// Before, the report read "timed out (context deadline exceeded)".
func stoppedWhy(err error, round int) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("the limit passed during round %d, whose re-runs are not counted", round)
	}
	return fmt.Sprintf("cancelled during round %d, whose re-runs are not counted", round)
}

func limit(look Look, res Result, o Options, perRun float64) (Stop, string) {
	switch {
	case look.Outcome != gate.Inconclusive:
		return Decided, ""
	case look.Unsettleable != "":
		return Unsettleable, look.Unsettleable
	case res.ItemRuns >= o.Budget:
		return BudgetSpent, ""
	case o.Timeout > 0 && res.Elapsed >= o.Timeout:
		return TimedOut, ""
	case o.MaxCostUSD > 0 && res.CostUSD != nil && *res.CostUSD >= o.MaxCostUSD:
		return CostSpent, ""
	case o.MaxCostUSD > 0 && perRun > 0 && valueOr(res.CostUSD)+perRun > o.MaxCostUSD:
		return CostSpent, "one more item-run would cost more than what is left"
	}
	return "", ""
}

// roundEvidence are the evidence items the next round re-runs: none when only the
// drop's size is open and the noisy items can narrow it (Look.Significant).
func roundEvidence(look Look) []string {
	if look.SizeUnsure && look.Significant && len(look.Noisy) > 0 {
		return nil
	}
	return append([]string(nil), look.Evidence...)
}

// roundNoisy are the noisy items the next round re-runs: all of them when the drop's
// size is unsure, no item carried it or most of the items that did are flaky; none
// when only whether a drop carried by stable items stands out is open (their re-runs
// tell a break from a bad first run; the budget then buys more rounds of them).
func roundNoisy(look Look) []string {
	if look.SizeUnsure || len(look.Evidence) == 0 {
		return look.Noisy
	}
	return look.Noisy[:min(look.Flipped, len(look.Noisy))]
}

// roundSize is how many items the next round re-runs: the evidence items and the noisy
// ones it takes (re-running items that neither pulled toward a drop nor carry the
// estimate's noise adds little), or, when the decision names none, a quarter of the
// budget; within what is left of the budget and, at the cost per item-run seen so far,
// of the dollars.
func roundSize(look Look, res Result, o Options, perRun float64) int {
	n := len(roundEvidence(look)) + len(roundNoisy(look))
	if n == 0 {
		n = (o.Budget + 3) / 4
	}
	n = min(n, o.Budget-res.ItemRuns)
	if o.MaxCostUSD > 0 && perRun > 0 {
		n = min(n, int((o.MaxCostUSD-valueOr(res.CostUSD))/perRun))
	}
	return n
}

// pick is the next round's items, n at most, each once: the evidence, strongest
// first, then the other items, the least re-run first, in their order.
func pick(evidence, items []string, reruns map[string]int, n int) []string {
	out := make([]string, 0, n)
	seen := map[string]bool{}
	for _, id := range evidence {
		if len(out) < n && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	var rest []string
	for _, id := range items {
		if !seen[id] {
			seen[id] = true
			rest = append(rest, id)
		}
	}
	sort.SliceStable(rest, func(i, j int) bool { return reruns[rest[i]] < reruns[rest[j]] })
	for _, id := range rest {
		if len(out) == n {
			break
		}
		out = append(out, id)
	}
	return out
}

// costPerItemRun is the first look's cost over its item-runs: what a re-run is
// expected to cost (0 when unknown).
func costPerItemRun(total *float64, itemRuns int) float64 {
	if total == nil || itemRuns <= 0 {
		return 0
	}
	return *total / float64(itemRuns)
}

func valueOr(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
