package runner

import (
	"math"
	"time"
)

// Item is one suite item: its id and every field of its record (prompt, input,
// expected, context, ...), as JSON values.
type Item struct {
	ID     string
	Fields map[string]any
}

// Result is one line of the results file, in the names evalgate's results loader
// reads. Every key is always written; a value the system did not report is null.
type Result struct {
	ID string `json:"id"`
	// Output is the answer: stdout without its final newline, or the reply message.
	Output string `json:"output"`
	// LatencyE2EMs is the wall-clock time from start to the full answer (seed 001
	// §1.3), measured for timeouts too.
	LatencyE2EMs float64 `json:"latency_e2e_ms"`
	// LatencyModelMs is the provider's own generation time, when it reports one.
	LatencyModelMs *float64 `json:"latency_model_ms"`
	// InputTokens and OutputTokens are the system under test's usage, when known.
	InputTokens  *int64 `json:"input_tokens"`
	OutputTokens *int64 `json:"output_tokens"`
	// CachedInputTokens is the part of InputTokens the provider served from its prompt
	// cache (usage.prompt_tokens_details.cached_tokens), when it says.
	CachedInputTokens *int64 `json:"cached_input_tokens"`
	// TimedOut is set when the item ran past the per-item timeout.
	TimedOut bool `json:"timed_out"`
	// Error says how the system failed on this item ("" if it did not).
	Error string `json:"error"`
	// Model is the model that answered, as the server reported it.
	Model string `json:"model"`
}

// millis converts a duration to milliseconds, kept to the microsecond.
func millis(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}
