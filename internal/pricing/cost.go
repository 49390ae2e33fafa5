package pricing

import "strings"

// Usage is the tokens one call (or a sum of calls) recorded. CachedInput is a part of
// Input: the input tokens the provider served from its prompt cache, as OpenAI's
// usage.prompt_tokens_details.cached_tokens is a part of prompt_tokens.
type Usage struct {
	Input, CachedInput, Output float64
}

// Cost is the price of u in USD: uncached input at Input, cached input at CachedInput
// (Input when the table has no cached rate), output at Output, all per million tokens.
// Cached tokens beyond Input are counted as Input (a record cannot cache more than it
// sent; the results loader refuses such a record).
func (p Price) Cost(u Usage) float64 {
	cached := min(u.CachedInput, u.Input)
	cachedRate := p.Input
	if p.CachedInput != nil {
		cachedRate = *p.CachedInput
	}
	return ((u.Input-cached)*p.Input + cached*cachedRate + u.Output*p.Output) / 1e6
}

// NoModel stands for the model of a record that names none, with no default either.
const NoModel = "(no model named)"

// Pricer prices recorded usage: a record's own model, else DefaultModel (the
// config's metadata.model_id).
type Pricer struct {
	Table        *Table
	DefaultModel string
}

// Model is the model a record with the given model field is priced as.
func (p *Pricer) Model(recorded string) string {
	if m := strings.TrimSpace(recorded); m != "" {
		return m
	}
	if m := strings.TrimSpace(p.DefaultModel); m != "" {
		return m
	}
	return NoModel
}

// Cost prices u for model (as Model returns it): ok is false when the table has no
// price for it, and the cost is then unknown, never 0.
func (p *Pricer) Cost(model string, u Usage) (float64, bool) {
	if p == nil || p.Table == nil || model == NoModel {
		return 0, false
	}
	price, _, ok := p.Table.Lookup(model)
	if !ok {
		return 0, false
	}
	return price.Cost(u), true
}
