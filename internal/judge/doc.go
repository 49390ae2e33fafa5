// Package judge scores candidate answers with a model as judge over an
// OpenAI-compatible chat completions API: seed 001's exact template and parse rules,
// seed 003's five-dimension 1–10 rubric, or a custom template; inserted values are
// sandboxed; calls are cached on disk by content, pooled, rate limited, retried and
// budgeted.
//
// The package imports no other evalgate package besides its own chat client and
// internal/progress: the scoring core adapts Judgments to its rubric, not the other way round.
package judge
