package ghaction

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// finalReserve: the last stretch of API calls keeps 1/finalReserve of the budget.
const finalReserve = 5

// errBudgetSpent is the cause of a context cut short by the publish budget.
var errBudgetSpent = errors.New("the publish budget is spent")

// timeBudget is the time all GitHub API calls of one run may take together (the
// publish-budget input). Scoring in between does not count: each stretch of calls takes
// a context that expires when the budget left runs out, and pays for the time it took.
// The stretches before the verdict (starting the check run, reading the base commit)
// leave a fifth of the budget to the last one, which concludes the check run and writes
// the comment, so a slow GitHub early on cannot leave a required check in progress.
type timeBudget struct {
	mu    sync.Mutex
	total time.Duration
	left  time.Duration
	spent bool // a context expired because the budget ran out
}

func newTimeBudget(total time.Duration) *timeBudget {
	return &timeBudget{total: total, left: total}
}

// context returns a context for one stretch of API calls and the function that ends
// the stretch, charging its time to the budget. final says the stretch publishes the
// outcome and may take what is left; the others leave finalReserve.
func (b *timeBudget) context(parent context.Context, final bool) (context.Context, func()) {
	b.mu.Lock()
	left := b.left
	b.mu.Unlock()
	if !final {
		left -= b.total / finalReserve
	}
	start := time.Now()
	ctx, cancel := context.WithTimeoutCause(parent, max(left, 0), errBudgetSpent)
	return ctx, func() {
		expired := context.Cause(ctx) == errBudgetSpent
		cancel()
		b.mu.Lock()
		defer b.mu.Unlock()
		b.left -= time.Since(start)
		b.spent = b.spent || expired || b.left <= 0
	}
}

// exhausted reports whether the budget ran out.
func (b *timeBudget) exhausted() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spent
}

// explain says so in err when err ends a stretch the budget cut short.
func (b *timeBudget) explain(err error) error {
	if err != nil && b.exhausted() && errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: the publish-budget of %s for all GitHub API calls ran out", err, b.total)
	}
	return err
}
