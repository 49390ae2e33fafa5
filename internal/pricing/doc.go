// Package pricing says what model calls cost: a dated, versioned price table shipped
// with the binary (prices.yaml, USD per million input, cached-input and output tokens
// per model id), the `pricing:` block of evalgate.yaml that overrides and extends it,
// the cost of recorded token counts, and Budget, which lets a run start a call only
// while the money left covers the worst case of every call in flight.
//
// It imports no evalgate package but safeio, so the runner, the judge and the scoring
// can all use it.
package pricing
