package judge

import "context"

// Caller sends one judge prompt to the model, with its own retries and rate limits.
// Package judge links no HTTP client: the CLI plugs one in (package judge/live) with
// WithCaller, so the scoring and decision packages that read judgments never link it.
type Caller interface {
	Call(ctx context.Context, c Call) (Reply, error)
}

// NewCaller builds the Caller of a judge that calls its model (not in replay mode) for
// cfg, its defaults filled. beforeAttempt must run before every attempt, retries
// included, and an error from it must end the call as is: it is the max_calls budget.
type NewCaller func(cfg Config, beforeAttempt func() error) Caller

// Call is one prompt: the sandbox notice as the system message, the rendered template
// as the user message.
type Call struct {
	Model        string
	System, User string
	Params       Params
}

// Reply is the model's answer to a Call.
type Reply struct {
	// Attempts is how many requests the call made, retries included; a Caller sets
	// it on failure too.
	Attempts int
	// Model and SystemFingerprint are what the endpoint says answered.
	Model, SystemFingerprint string
	// Content is the first choice's message ("" when there is none).
	Content string
	Usage   Usage
}

// CallError is a failed Call as its Caller classifies it. An error a Caller returns
// that is not a CallError (nor the context's) ends the run, as Fatal does.
type CallError struct {
	Err error
	// Fatal: every item would fail the same way (a bad key, an unknown model, an
	// unreachable endpoint), so the run stops.
	Fatal bool
	// Timeout: no full reply within the per-call timeout.
	Timeout bool
	// Hint says what to check after a Fatal refusal, appended to the message.
	Hint string
}

func (e *CallError) Error() string { return e.Err.Error() + e.Hint }

func (e *CallError) Unwrap() error { return e.Err }

// WithCaller makes the judge call its model through the Caller f builds. Without it a
// judge answers from its cache only, as in replay mode, and a miss is an error.
func WithCaller(f NewCaller) Option { return func(o *options) { o.newCaller = f } }
