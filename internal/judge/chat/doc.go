// Package chat calls an OpenAI-compatible chat completions endpoint the way a gate
// needs it: a per-call timeout, a bounded number of retries on 429/5xx that honours
// Retry-After, request and token rate limits, and an exact count of HTTP attempts.
//
// openai-go's own retries are switched off so that every attempt passes through this
// package and can be counted, rate limited and charged to a budget. The package
// imports no evalgate package; both the judge and `evalgate run` use it.
package chat
