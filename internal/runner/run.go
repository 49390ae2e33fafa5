package runner

import (
	"context"
	"errors"
	"io"

	"golang.org/x/sync/errgroup"

	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/progress"
)

// DefaultConcurrency is how many items run at once unless Options says otherwise.
const DefaultConcurrency = 8

// System is a system under test.
type System interface {
	// Run answers one item. Failures of the item (a non-zero exit, a timeout, an HTTP
	// error about this request) go in the Result; an error return stops the whole run
	// (ctx done, a command that cannot start, a bad API key) and the Result is dropped.
	Run(ctx context.Context, it Item) (Result, error)
}

// Checker is a System that can refuse items up front (openai mode: a field the prompt
// template reads is missing), so a run does not stop halfway on a hole in the suite.
type Checker interface {
	Check(items []Item) error
}

// Budgeted is a System whose calls can be priced before they start: the most an
// item's call can use (its prompt, max_tokens of output).
type Budgeted interface {
	WorstUsage(it Item) (pricing.Usage, error)
}

// Options tune Run.
type Options struct {
	// Concurrency bounds the items in flight; 0 means DefaultConcurrency.
	Concurrency int
	// Progress receives one Add per finished item; nil reports nothing.
	Progress *progress.Bar
	// Budget, when set, caps the run's spend: an item starts only when the budget can
	// reserve the cost of its worst case at Price, besides the worst case of every
	// item in flight; the first refusal stops the run from starting more, and what is
	// in flight finishes and is written. The System must be Budgeted.
	Budget *pricing.Budget
	Price  pricing.Price
	// Untimed records no wall-clock time (latency_e2e_ms 0, no latency_model_ms), so a
	// deterministic system's results are byte-identical run to run: check --settle's
	// re-runs in a report pinned by SOURCE_DATE_EPOCH or --run-id.
	Untimed bool
}

// Summary counts what Run did.
type Summary struct {
	Items    int `json:"items"`
	Written  int `json:"written"`
	TimedOut int `json:"timed_out"`
	Errors   int `json:"errors"`
	// BudgetCut says the budget stopped the run: NotRun items were never started.
	BudgetCut bool `json:"budget_cut,omitempty"`
	NotRun    int  `json:"not_run,omitempty"`
	// CostUSD is what the written items cost, priced from the tokens they recorded
	// (their worst case when they recorded none); set only under a budget.
	CostUSD float64 `json:"cost_usd,omitempty"`
}

// usageOf is the usage a result recorded, and whether it recorded any.
func usageOf(r Result) (pricing.Usage, bool) {
	if r.InputTokens == nil && r.OutputTokens == nil {
		return pricing.Usage{}, false
	}
	var u pricing.Usage
	if r.InputTokens != nil {
		u.Input = float64(*r.InputTokens)
	}
	if r.OutputTokens != nil {
		u.Output = float64(*r.OutputTokens)
	}
	if r.CachedInputTokens != nil {
		u.CachedInput = float64(*r.CachedInputTokens)
	}
	return u, true
}

// Run runs sys over items and writes each Result to out as a JSON line as soon as it
// is ready (completion order). A System that is a Checker checks the items first. Run
// stops at the first run-ending error; the lines written by then stay valid.
func Run(ctx context.Context, sys System, items []Item, out io.Writer, opts Options) (Summary, error) {
	if c, ok := sys.(Checker); ok {
		if err := c.Check(items); err != nil {
			return Summary{Items: len(items)}, err
		}
	}
	limit := opts.Concurrency
	if limit <= 0 {
		limit = DefaultConcurrency
	}
	bsys, budgeted := sys.(Budgeted)
	if opts.Budget != nil && !budgeted {
		return Summary{Items: len(items)}, errors.New("runner: max_cost_usd needs a system whose calls can be priced before they start (openai mode); an exec command records no tokens")
	}
	s := &sink{w: out}
	sum := Summary{Items: len(items)}
	counts := make(chan Result, len(items))
	g, gctx := errgroup.WithContext(ctx)
	// A slot is taken before the budget is asked, so an item's reservation is made
	// when it can start, after the items before it that finished have settled.
	slots := make(chan struct{}, limit)
	for k, it := range items {
		select {
		case slots <- struct{}{}:
		case <-gctx.Done():
		}
		if gctx.Err() != nil {
			break
		}
		var res *pricing.Reservation
		var worst float64
		if opts.Budget != nil {
			u, err := bsys.WorstUsage(it)
			if err != nil {
				<-slots
				g.Go(func() error { return err })
				break
			}
			worst = opts.Price.Cost(u)
			if res, err = opts.Budget.Reserve(worst); err != nil {
				<-slots
				sum.BudgetCut, sum.NotRun = true, len(items)-k
				break
			}
		}
		g.Go(func() error {
			defer func() { <-slots }()
			r, err := sys.Run(gctx, it)
			if err != nil {
				res.Settle(worst) // what it spent is unknown: its worst case
				return err
			}
			if u, ok := usageOf(r); ok {
				res.Settle(opts.Price.Cost(u))
			} else {
				res.Settle(worst)
			}
			if opts.Untimed {
				r.LatencyE2EMs, r.LatencyModelMs = 0, nil
			}
			if err := s.write(r); err != nil {
				return err
			}
			counts <- r
			opts.Progress.Add(1)
			return nil
		})
	}
	err := g.Wait()
	if err == nil {
		err = ctx.Err()
	}
	opts.Progress.Finish()
	close(counts)
	if opts.Budget != nil {
		sum.CostUSD = opts.Budget.Spent()
	}
	for r := range counts {
		sum.Written++
		switch {
		case r.TimedOut:
			sum.TimedOut++
		case r.Error != "":
			sum.Errors++
		}
	}
	return sum, err
}
