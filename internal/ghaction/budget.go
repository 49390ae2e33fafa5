package ghaction

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// stretch says which calls a context is for, and so how much of the budget they get.
type stretch int

const (
	// stretchStart starts the check run: at most a fifth of the budget, as it matters
	// least, and it leaves the publishing reserve.
	stretchStart stretch = iota
	// stretchRead reads the base commit before the verdict; it leaves the publishing
	// reserve.
	stretchRead
	// stretchCheckRun concludes the check run when a comment follows: half of what is
	// left.
	stretchCheckRun
	// stretchFinal publishes the outcome (the comment, the refresh): all that is left.
	stretchFinal
)

// finalReserve: the stretches before the verdict leave 1/finalReserve of the budget
// for publishing it.
const finalReserve = 5

// errBudgetSpent is the cause of a context cut short by the publish budget.
var errBudgetSpent = errors.New("the publish budget is spent")

// timeBudget is the time all GitHub API calls of one run may take together (the
// publish-budget input). Scoring in between does not count: each stretch of calls takes
// a context that expires when the budget left runs out, and pays for the time it took.
// The stretches before the verdict (starting the check run, reading the base commit)
// leave a fifth of the budget for publishing it, and the check run leaves half of what
// is left to the comment, so a GitHub that hangs on one call cannot keep the others
// from being tried, nor leave a required check in progress.
type timeBudget struct {
	mu    sync.Mutex
	total time.Duration
	left  time.Duration
	spent bool // a context expired because the budget ran out
}

func newTimeBudget(total time.Duration) *timeBudget {
	return &timeBudget{total: total, left: total}
}

// context returns a context for one stretch of API calls of kind s and the function
// that ends the stretch, charging its time to the budget.
func (b *timeBudget) context(parent context.Context, s stretch) (context.Context, func()) {
	b.mu.Lock()
	left := b.left
	b.mu.Unlock()
	switch s {
	case stretchStart:
		left = min(left-b.total/finalReserve, b.total/finalReserve)
	case stretchRead:
		left -= b.total / finalReserve
	case stretchCheckRun:
		left /= 2
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
