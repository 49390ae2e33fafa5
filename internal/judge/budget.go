package judge

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// ErrBudgetExceeded is wrapped by the error that stops a run going over its budget.
var ErrBudgetExceeded = errors.New("judge budget exceeded")

// budget caps the calls and tokens of one Judge, across all its Evaluate calls, so a
// runaway run (a suite that grew tenfold, a cache that stopped hitting) stops early
// with a clear error instead of a surprising bill.
type budget struct {
	maxCalls, maxTokens int64
	calls, tokens       atomic.Int64
}

// takeCall reserves one call, refusing the one that would go over max_calls.
func (b *budget) takeCall() error {
	n := b.calls.Add(1)
	if b.maxCalls > 0 && n > b.maxCalls {
		return fmt.Errorf("%w: %d calls > max_calls %d", ErrBudgetExceeded, n, b.maxCalls)
	}
	return nil
}

// addTokens charges tokens already spent; the call that goes over is reported after
// the fact, since its size is only known once it returns.
func (b *budget) addTokens(n int64) error {
	t := b.tokens.Add(n)
	if b.maxTokens > 0 && t > b.maxTokens {
		return fmt.Errorf("%w: %d tokens > max_total_tokens %d", ErrBudgetExceeded, t, b.maxTokens)
	}
	return nil
}
