package judge

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/evalgate/evalgate/internal/pricing"
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

// costBudget is a judge's max_cost_usd: the shared budget and the model's price.
type costBudget struct {
	budget *pricing.Budget
	price  pricing.Price
}

// messageOverhead bounds the tokens a chat message costs beyond its text.
const messageOverhead = 16

// reserve claims the worst case of a call whose messages hold text: every byte a
// token (a token is at least one byte), each message's overhead, max_tokens out.
func (c *costBudget) reserve(text string, messages, maxTokens int) (*pricing.Reservation, float64, error) {
	if c == nil {
		return nil, 0, nil
	}
	worst := c.price.Cost(pricing.Usage{Input: float64(len(text) + messages*messageOverhead), Output: float64(maxTokens)})
	r, err := c.budget.Reserve(worst)
	if err != nil {
		return nil, 0, fmt.Errorf("%w (max_cost_usd): %w", ErrBudgetExceeded, err)
	}
	return r, worst, nil
}

// settle charges what a call cost: its usage at the price.
func (c *costBudget) settle(r *pricing.Reservation, u Usage) {
	if c == nil {
		return
	}
	r.Settle(c.price.Cost(pricing.Usage{Input: float64(u.PromptTokens), CachedInput: float64(u.CachedPromptTokens), Output: float64(u.CompletionTokens)}))
}

// WithCostBudget makes the judge start a call only while b covers its worst case at
// price (the config's max_cost_usd); a judge panel may share one budget.
func WithCostBudget(b *pricing.Budget, price pricing.Price) Option {
	return func(o *options) { o.cost = &costBudget{budget: b, price: price} }
}
