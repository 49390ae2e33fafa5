package chat

import (
	"context"
	"math"

	"golang.org/x/time/rate"
)

// Limiter spaces out calls to stay under a requests-per-minute and a tokens-per-minute
// limit, as providers publish them. A zero limit means unlimited; a nil *Limiter
// never waits.
type Limiter struct {
	requests *rate.Limiter
	tokens   *rate.Limiter
}

// NewLimiter returns a Limiter for rpm requests and tpm tokens per minute.
//
// Requests have a burst of 1, so calls are spread evenly rather than sent in a rush
// that the provider's own per-minute window would refuse. Tokens have a burst of a full
// minute's allowance so that one large prompt never waits forever.
func NewLimiter(rpm, tpm int) *Limiter {
	l := &Limiter{}
	if rpm > 0 {
		l.requests = rate.NewLimiter(rate.Limit(float64(rpm)/60), 1)
	}
	if tpm > 0 {
		l.tokens = rate.NewLimiter(rate.Limit(float64(tpm)/60), tpm)
	}
	return l
}

// Wait blocks until one request of about tokens tokens may be sent, or ctx ends.
func (l *Limiter) Wait(ctx context.Context, tokens int) error {
	if l == nil {
		return nil
	}
	if l.requests != nil {
		if err := l.requests.Wait(ctx); err != nil {
			return err
		}
	}
	if l.tokens != nil && tokens > 0 {
		// WaitN refuses n above the burst; such a request is sent when the bucket is full.
		n := min(tokens, l.tokens.Burst())
		if err := l.tokens.WaitN(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// EstimateTokens is a deliberately rough count for the token limiter before the
// provider reports real usage: about four bytes of prompt per token, plus the reply's
// upper bound.
func EstimateTokens(prompt string, maxTokens int) int {
	return int(math.Ceil(float64(len(prompt))/4)) + maxTokens
}
