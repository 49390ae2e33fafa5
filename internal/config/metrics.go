package config

import (
	"sort"

	"github.com/evalgate/evalgate/internal/rubric"
)

// runMetricNames are the metrics every run may have (latency and token metrics exist
// when results record them).
var runMetricNames = []string{
	rubric.MetricMeanScore, rubric.MetricAggregateScore, rubric.MetricPassRate,
	rubric.MetricItems, rubric.MetricScoredItems, rubric.MetricMissingItems,
	rubric.MetricPendingItems, rubric.MetricTimedOut, rubric.MetricErrors,
	rubric.MetricJudgeErrors, rubric.MetricCappedItems,
	"latency_e2e_p50_ms", "latency_e2e_p95_ms", "latency_model_p50_ms", "latency_model_p95_ms",
	"total_input_tokens", "total_output_tokens", "total_tokens",
	"tokens_per_correct_answer", "token_efficiency_ratio_mean",
	rubric.MetricCostUSD, rubric.MetricCostPerItemUSD, rubric.MetricCostPerCorrectUSD, rubric.MetricJudgeCostUSD,
}

// MetricNames lists every metric a gate may name under a scoring system.
func MetricNames(s *rubric.System) []string {
	out := append([]string(nil), runMetricNames...)
	for _, d := range s.Dimensions {
		for _, suf := range rubric.DimensionMetricSuffixes {
			out = append(out, d.Name+suf)
		}
	}
	sort.Strings(out)
	return out
}
