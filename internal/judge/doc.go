// Package judge scores candidate answers with a model as judge over an
// OpenAI-compatible chat completions API: seed 001's exact template and parse rules,
// seed 003's five-dimension 1–10 rubric, or a custom template; inserted values are
// sandboxed; calls are cached on disk by content, pooled, rate limited, retried and
// budgeted.
//
// The package links no HTTP client and no progress bar: a judge calls its model through
// a Caller and reports through a Bar, both plugged in by the CLI from package judge/live,
// so the packages that only read judgments (rubric, baseline, gate, report) never link
// them. It imports no other evalgate package besides safeio and pricing: the scoring core
// adapts Judgments to its rubric, not the other way round.
package judge
