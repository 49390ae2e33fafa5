package baseline

import (
	"maps"

	"github.com/evalgate/evalgate/internal/rubric"
)

// ComparableMetrics are the baseline's metrics as a comparison reads them: all of
// them, except a judge_cost_usd that is only what its judge calls were paid (a
// baseline made before JudgeCostPricesHits): cache luck, not the judging's cost, so it
// is left out rather than compared.
func (b *Baseline) ComparableMetrics() map[string]float64 {
	if _, ok := b.Metrics[rubric.MetricJudgeCostUSD]; !ok || b.JudgeCostPricesHits {
		return b.Metrics
	}
	m := maps.Clone(b.Metrics)
	delete(m, rubric.MetricJudgeCostUSD)
	return m
}
