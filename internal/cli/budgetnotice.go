package cli

import (
	"fmt"
	"os"

	"github.com/evalgate/evalgate/internal/eval"

	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/runner"
)

// budgetNotices says, for each results file whose run was cut by its budget (the note
// `evalgate run` leaves beside it), that its missing items were never run.
func budgetNotices(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		n, err := runner.ReadBudgetNote(p)
		if err != nil {
			return nil, err
		}
		if n == nil {
			continue
		}
		out = append(out, fmt.Sprintf("run %s was cut by its budget: %s spent of max_cost_usd %s; %d of %d items never ran and count as missing. Finish it by running it again with --resume and a larger --max-cost-usd: only the items not run run.",
			p, pricing.Dollars(n.SpentUSD), pricing.Dollars(n.MaxCostUSD), n.NotRun, n.Items))
	}
	return out, nil
}

// budgetCutRefusal refuses a baseline made from a run its budget cut: the items it
// never ran would count as failing in every later comparison, so the baseline would
// read low and pass drops. Nil when no run was cut.
func budgetCutRefusal(paths []string) error {
	for _, p := range paths {
		n, err := runner.ReadBudgetNote(p)
		if err != nil {
			return err
		}
		if n != nil {
			return fmt.Errorf("%s: its run was cut by its budget (%d of %d items never ran; %s spent of max_cost_usd %s), and a baseline would count those items as failing. Finish it first by running it again with --resume and a larger --max-cost-usd",
				p, n.NotRun, n.Items, pricing.Dollars(n.SpentUSD), pricing.Dollars(n.MaxCostUSD))
		}
	}
	return nil
}

// emptyCutRun names a results file that its run's budget cut before any item ran (a
// cap under one item's worst case, or left by the runs before it in a series): the
// file is empty, which no format reads, so the error says why and how to go on rather
// than "results file is empty".
func emptyCutRun(paths []string) error {
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() || st.Size() != 0 {
			continue
		}
		n, err := runner.ReadBudgetNote(p)
		if err != nil {
			return err
		}
		if n != nil {
			return eval.Errorf(p, 0, "", "its run was cut by its budget before any item ran (%s spent of max_cost_usd %s, which cannot cover one more item's worst case; %d of %d items not run). Finish it by running it again with --resume and a larger --max-cost-usd",
				pricing.Dollars(n.SpentUSD), pricing.Dollars(n.MaxCostUSD), n.NotRun, n.Items)
		}
	}
	return nil
}
