package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/settle"
)

// SetSettle records what check --settle did and says it under the headline: one line
// for the whole (how it ended, and each limit's figure beside what was used), then
// one per round (the items re-run, the figure after the round, its cost).
func (r *Report) SetSettle(res *settle.Result) {
	r.Settle = res
	if res == nil {
		return
	}
	r.AddNotice(NoticeNote, settleSummary(res))
	r.AddWarning(NoticeNote, settleCostWarning(res))
	for _, line := range settleRoundLines(res) {
		r.AddNotice(NoticeNote, line)
	}
}

// settleCostWarning says that max_cost_usd could not limit re-runs of unknown cost;
// "" when it could, or there was none.
func settleCostWarning(res *settle.Result) string {
	if res.MaxCostUSD <= 0 || res.CostUSD != nil || res.ItemRuns == 0 {
		return ""
	}
	return fmt.Sprintf("settle: max_cost_usd %s cannot limit re-runs whose cost is unknown: their results record no cost (an exec `run:` block without token counts, or a model without a price); the budget of extra item-runs and the timeout still apply",
		pricing.Dollars(res.MaxCostUSD))
}

// settleRoundLines are the first look and each round, one line each; none when
// settling decided at the first look.
func settleRoundLines(res *settle.Result) []string {
	if len(res.Rounds) == 0 {
		return nil
	}
	lines := []string{fmt.Sprintf("settle first look: %s (tested at p < %s): %s", res.Figure, strconv.FormatFloat(res.Level, 'g', 3, 64), res.Initial)}
	for i, rd := range res.Rounds {
		cost := ""
		if rd.CostUSD != nil {
			cost = ", " + pricing.Dollars(*rd.CostUSD)
		}
		lines = append(lines, fmt.Sprintf("settle round %d: re-ran %s → %s (tested at p < %s): %s · %d item-run(s)%s",
			i+1, itemList(rd.Items), rd.Figure, strconv.FormatFloat(rd.Level, 'g', 3, 64), rd.Outcome, len(rd.Items), cost))
	}
	return lines
}

// settleSummary is "settle: fail after 2 round(s) · 3 of 4 extra item-runs · $0.0012 of
// max_cost_usd $0.50 · 1.2 s of 10m0s".
func settleSummary(res *settle.Result) string {
	var b strings.Builder
	switch {
	case len(res.Rounds) == 0 && res.Stop == settle.Decided:
		fmt.Fprintf(&b, "settle: %s at the first look (tested at p < %s), no re-run needed", res.Outcome, strconv.FormatFloat(res.Level, 'g', 3, 64))
	case res.Stop == settle.Decided:
		fmt.Fprintf(&b, "settle: %s after %d round(s) of re-runs", res.Outcome, len(res.Rounds))
	default:
		fmt.Fprintf(&b, "settle: still %s after %d round(s), %s", res.Outcome, len(res.Rounds), res.Stop)
		if res.Why != "" {
			fmt.Fprintf(&b, " (%s)", res.Why)
		}
		if res.Outcome == gate.Inconclusive {
			b.WriteString("; `regression.inconclusive` decides")
		}
	}
	fmt.Fprintf(&b, " · %d of %d extra item-runs", res.ItemRuns, res.Budget)
	switch {
	case res.CostUSD != nil && res.MaxCostUSD > 0:
		fmt.Fprintf(&b, " · %s of max_cost_usd %s", pricing.Dollars(*res.CostUSD), pricing.Dollars(res.MaxCostUSD))
	case res.CostUSD != nil:
		fmt.Fprintf(&b, " · %s", pricing.Dollars(*res.CostUSD))
	case res.ItemRuns == 0 && res.MaxCostUSD > 0: // stopped before a round: nothing spent
		fmt.Fprintf(&b, " · %s of max_cost_usd %s", pricing.Dollars(0), pricing.Dollars(res.MaxCostUSD))
	case res.MaxCostUSD > 0: // the cap could not apply: SetSettle warns
		b.WriteString(" · cost unknown")
	}
	switch {
	case res.Timeout > 0 && res.Elapsed == 0: // a pinned report records no wall-clock time
		fmt.Fprintf(&b, " · timeout %s", res.Timeout)
	case res.Timeout > 0:
		fmt.Fprintf(&b, " · %s of %s", res.Elapsed.Round(100*time.Millisecond), res.Timeout)
	}
	return b.String()
}

// itemList is "1 item (\"refund window\")", the ids quoted (they are untrusted text), the
// first 5 named.
func itemList(ids []string) string {
	q := make([]string, 0, 5)
	for i, id := range ids {
		if i == 5 {
			q = append(q, fmt.Sprintf("and %d more", len(ids)-5))
			break
		}
		q = append(q, strings.ReplaceAll(strconv.Quote(id), "`", `\x60`))
	}
	noun := "items"
	if len(ids) == 1 {
		noun = "item"
	}
	return fmt.Sprintf("%d %s (%s)", len(ids), noun, strings.Join(q, ", "))
}
