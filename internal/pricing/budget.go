package pricing

import (
	"errors"
	"fmt"
	"sync"
)

// ErrBudget is wrapped by the error of a call refused because the budget cannot cover it.
var ErrBudget = errors.New("cost budget reached")

// Budget caps what a run spends, in USD, across concurrent calls. A call starts only
// when what is spent, plus the worst case of every call in flight, plus its own worst
// case still fits under Max; so, as long as no call costs more than its worst case (its
// whole prompt and max_tokens of output), the run never spends more than Max. Once a
// call is refused, every later one is too: the run stops starting work, and the work
// in flight finishes and is kept.
//
// A nil *Budget has no limit. Budget is safe for concurrent use; the runner, the judge
// and settle share this one type.
type Budget struct {
	max      float64
	mu       sync.Mutex
	spent    float64
	inFlight float64
	calls    int
	refused  bool
}

// ValidCap reports whether x can be a max_cost_usd: 0 (no cap) or a positive amount
// of US dollars up to 1e12. NaN and the infinities cannot: a cap that compares false
// with everything would be no cap at all.
func ValidCap(x float64) bool { return x == 0 || (x > 0 && x <= 1e12) }

// NewBudget returns a budget of max USD; max must be positive.
func NewBudget(max float64) (*Budget, error) {
	if max == 0 || !ValidCap(max) {
		return nil, fmt.Errorf("max_cost_usd is %v; want a positive amount of US dollars", max)
	}
	return &Budget{max: max}, nil
}

// Reservation is one started call's claim on a budget.
type Reservation struct {
	b     *Budget
	worst float64
	done  bool
}

// Reserve claims worst USD for a call about to start. It fails, wrapping ErrBudget,
// when the budget cannot cover it, and from then on always.
func (b *Budget) Reserve(worst float64) (*Reservation, error) {
	if b == nil {
		return &Reservation{}, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.refused || b.spent+b.inFlight+worst > b.max {
		b.refused = true
		return nil, fmt.Errorf("%w: $%s spent and $%s in flight of max_cost_usd $%s; the next call could cost $%s",
			ErrBudget, FormatUSD(b.spent), FormatUSD(b.inFlight), FormatUSD(b.max), FormatUSD(worst))
	}
	b.inFlight += worst
	b.calls++
	return &Reservation{b: b, worst: worst}, nil
}

// Settle ends the call: actual is what it cost (its worst case when the reply said
// nothing of its usage). Settling twice does nothing.
func (r *Reservation) Settle(actual float64) {
	if r == nil || r.b == nil || r.done {
		return
	}
	r.done = true
	b := r.b
	b.mu.Lock()
	defer b.mu.Unlock()
	b.inFlight -= r.worst
	b.spent += actual
}

// Max is the budget's cap in USD (0 for a nil budget: none).
func (b *Budget) Max() float64 {
	if b == nil {
		return 0
	}
	return b.max
}

// Spent is what the settled calls cost.
func (b *Budget) Spent() float64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spent
}

// Cut reports whether the budget refused a call: the run it capped stopped early.
func (b *Budget) Cut() bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.refused
}

// Calls is the number of calls the budget let start.
func (b *Budget) Calls() int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls
}
