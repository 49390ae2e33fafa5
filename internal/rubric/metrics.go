package rubric

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/stats"
)

// Metrics are named summary figures of a run, the names gates refer to.
type Metrics map[string]float64

// Names returns the metric names in sorted order.
func (m Metrics) Names() []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Metric names of a run: the one list of them. Gates, reports, baselines and
// diagnosis name a metric by these constants, or by DimensionMetric for a dimension's.
// Latency and token metrics exist when results record them; the cost metrics are in
// cost.go (CostMetrics).
const (
	MetricMeanScore      = "mean_score"
	MetricAggregateScore = "aggregate_score" // seed 001's name for mean_score
	MetricPassRate       = "pass_rate"
	MetricItems          = "items"
	MetricScoredItems    = "scored_items"
	MetricMissingItems   = "missing_items"
	MetricPendingItems   = "pending_items"
	MetricTimedOut       = "timed_out"
	MetricErrors         = "errors"
	MetricJudgeErrors    = "judge_errors"
	MetricCappedItems    = "capped_items"

	MetricLatencyE2EP50   = "latency_e2e_p50_ms"
	MetricLatencyE2EP95   = "latency_e2e_p95_ms"
	MetricLatencyModelP50 = "latency_model_p50_ms"
	MetricLatencyModelP95 = "latency_model_p95_ms"

	MetricInputTokens          = "total_input_tokens"
	MetricOutputTokens         = "total_output_tokens"
	MetricTotalTokens          = "total_tokens"
	MetricTokensPerCorrect     = "tokens_per_correct_answer"
	MetricTokenEfficiencyRatio = "token_efficiency_ratio_mean"
)

// runMetricNames are the metrics every run may have, in the constants' order.
var runMetricNames = []string{
	MetricMeanScore, MetricAggregateScore, MetricPassRate,
	MetricItems, MetricScoredItems, MetricMissingItems,
	MetricPendingItems, MetricTimedOut, MetricErrors,
	MetricJudgeErrors, MetricCappedItems,
	MetricLatencyE2EP50, MetricLatencyE2EP95, MetricLatencyModelP50, MetricLatencyModelP95,
	MetricInputTokens, MetricOutputTokens, MetricTotalTokens,
	MetricTokensPerCorrect, MetricTokenEfficiencyRatio,
	MetricCostUSD, MetricCostPerItemUSD, MetricCostPerCorrectUSD, MetricJudgeCostUSD,
}

// Suffixes of a dimension's metrics, appended to its name: _score (mean normalized
// value), _mean (mean raw value, seed 001's accuracy_mean), _failures, _failure_rate,
// _full_credit_rate (seed 001's accuracy_full_credit_rate).
const (
	SuffixScore          = "_score"
	SuffixMean           = "_mean"
	SuffixFailures       = "_failures"
	SuffixFailureRate    = "_failure_rate"
	SuffixFullCreditRate = "_full_credit_rate"
)

// DimensionMetricSuffixes are the suffixes of a dimension's metrics.
var DimensionMetricSuffixes = []string{SuffixScore, SuffixMean, SuffixFailures, SuffixFailureRate, SuffixFullCreditRate}

// DimensionMetric names a dimension's metric: DimensionMetric("accuracy", SuffixScore)
// is "accuracy_score".
func DimensionMetric(dim, suffix string) string { return dim + suffix }

// MetricNames lists every metric a gate may name under the scoring system, sorted.
func (s *System) MetricNames() []string {
	out := append([]string(nil), runMetricNames...)
	for _, d := range s.Dimensions {
		for _, suf := range DimensionMetricSuffixes {
			out = append(out, DimensionMetric(d.Name, suf))
		}
	}
	sort.Strings(out)
	return out
}

// runMetrics summarizes one run, reading its samples in suite order, and says which
// figures are estimates (latency percentiles past stats.ExactQuantilesUpTo values).
func (s *System) runMetrics(c *sampleCols) (Metrics, map[string]Estimate) {
	m := Metrics{}
	nd := len(s.Dimensions)
	var scores, effRatios []float64
	var pass, scored, timedOut, errs, judgeErrs, capped, correct, missing int
	var inTok, outTok float64
	normSum := make([]float64, nd)
	normN := make([]int, nd)
	rawSum := make([]float64, nd)
	rawN := make([]int, nd)
	fails := make([]int, nd)
	full := make([]int, nd)
	correctDim := -1
	if s.CorrectDimension != "" {
		correctDim = s.DimensionIndex(s.CorrectDimension)
	}
	n := c.len()
	var buf Sample
	for i := range n {
		sm := &buf
		c.sample(s, i, sm)
		if sm.Missing {
			missing++
		} else {
			in, inOK := colNum(c.inTok, i)
			out, outOK := colNum(c.outTok, i)
			inTok += in
			outTok += out
			if inOK && outOK {
				effRatios = append(effRatios, out/max(in, 1))
			}
			if c.flags[i]&fTimedOut != 0 {
				timedOut++
			}
			if c.flags[i]&fError != 0 {
				errs++
			}
		}
		if sm.Pending {
			continue
		}
		scored++
		scores = append(scores, sm.Score)
		if sm.Pass {
			pass++
		}
		if sm.CappedBy != "" {
			capped++
		}
		isCorrect := sm.Pass
		judged := false
		for d, v := range sm.Values {
			if v.Error != "" && !judged {
				judged = true // one judge error per sample, however many keys it nulls
				judgeErrs++
			}
			if v.Excluded {
				continue
			}
			normSum[d] += v.Norm
			normN[d]++
			if v.Raw != nil {
				rawSum[d] += *v.Raw
				rawN[d]++
			}
			if sm.Missing || s.Failed(d, v) {
				fails[d]++
			}
			if v.Norm == 1 {
				full[d]++
			}
			if d == correctDim {
				isCorrect = v.Norm == 1
			}
		}
		if isCorrect && !sm.Missing {
			correct++
		}
	}
	m[MetricItems] = float64(n)
	m[MetricScoredItems] = float64(scored)
	m[MetricMissingItems] = float64(missing)
	m[MetricPendingItems] = float64(n - scored)
	m[MetricTimedOut] = float64(timedOut)
	m[MetricErrors] = float64(errs)
	m[MetricJudgeErrors] = float64(judgeErrs)
	m[MetricCappedItems] = float64(capped)
	if scored > 0 {
		m[MetricMeanScore] = Round9(stats.Mean(scores))
		m[MetricAggregateScore] = m[MetricMeanScore]
		m[MetricPassRate] = Round9(float64(pass) / float64(scored))
	}
	lat := c.latencies()
	est := latencyPercentiles(m, []namedQuantiles{
		{lat[0], MetricLatencyE2EP50, MetricLatencyE2EP95},
		{lat[1], MetricLatencyModelP50, MetricLatencyModelP95},
	})
	m[MetricInputTokens] = inTok
	m[MetricOutputTokens] = outTok
	m[MetricTotalTokens] = inTok + outTok
	// seed 001 §1.4: total_tokens / max(count(correct), 1)
	m[MetricTokensPerCorrect] = Round9((inTok + outTok) / float64(max(correct, 1)))
	if len(effRatios) > 0 {
		m[MetricTokenEfficiencyRatio] = Round9(stats.Mean(effRatios))
	}
	c.costMetrics(m, n-missing, correct)
	for d, dim := range s.Dimensions {
		if normN[d] == 0 {
			continue
		}
		n := float64(normN[d])
		m[DimensionMetric(dim.Name, SuffixScore)] = Round9(normSum[d] / n)
		if rawN[d] > 0 {
			m[DimensionMetric(dim.Name, SuffixMean)] = Round9(rawSum[d] / float64(rawN[d]))
		}
		m[DimensionMetric(dim.Name, SuffixFailures)] = float64(fails[d])
		m[DimensionMetric(dim.Name, SuffixFailureRate)] = Round9(float64(fails[d]) / n)
		m[DimensionMetric(dim.Name, SuffixFullCreditRate)] = Round9(float64(full[d]) / n)
		if normN[d] < scored {
			// n/a on some scored items: its figures are over the others, and say how many.
			m[dim.Name+MetricApplicableSuffix] = n
		}
	}
	return m, est
}

// MetricApplicableSuffix names, after a dimension's name, how many scored items the
// dimension applies to when it is n/a on some: its _score, _failures and rates are
// over those items only.
const MetricApplicableSuffix = "_applicable_items"

// acrossRuns gives each metric's mean over runs and its sample std (n − 1). A metric
// absent from some run is averaged over the runs that have it.
func acrossRuns(runs []RunScore) (Metrics, Metrics) {
	vals := map[string][]float64{}
	for _, r := range runs {
		for k, v := range r.Metrics {
			vals[k] = append(vals[k], v)
		}
	}
	mean, std := Metrics{}, Metrics{}
	for k, xs := range vals {
		mean[k] = Round9(stats.Mean(xs))
		std[k] = Round9(stats.SampleStd(xs))
	}
	return mean, std
}

// Units of metrics, as reports print them next to a gate's threshold and value.
const (
	UnitScore  = ""       // a 0–1 score or a plain number
	UnitMs     = "ms"     // milliseconds
	UnitRate   = "rate"   // a fraction of the items, printed as a percentage
	UnitTokens = "tokens" // a token count
	UnitItems  = "items"  // a count of items
	UnitUSD    = "usd"    // US dollars
)

// MetricUnit is the unit of a metric, known from its name.
func MetricUnit(name string) string {
	switch {
	case strings.HasSuffix(name, "_usd"):
		return UnitUSD
	case strings.HasSuffix(name, "_ms"):
		return UnitMs
	case name == MetricPassRate || strings.HasSuffix(name, "_rate"):
		return UnitRate
	case name == MetricTokensPerCorrect || strings.HasSuffix(name, "_tokens"):
		return UnitTokens
	case strings.HasSuffix(name, SuffixFailures), strings.HasSuffix(name, "_items"), name == MetricItems,
		name == MetricTimedOut, name == MetricErrors, name == MetricJudgeErrors:
		return UnitItems
	}
	return UnitScore
}

// FormatMetric prints a metric's value in its unit: "250 ms", "5 %" for a rate of 0.05
// (one decimal: "78.3 %"), "2000 tokens", "2 items"; a score or plain number with at
// most 4 significant digits and no float noise.
func FormatMetric(x float64, unit string) string {
	switch unit {
	case UnitMs:
		return formatNum(x) + " ms"
	case UnitRate:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", x*100), ".0") + " %"
	case UnitUSD:
		return pricing.Dollars(x)
	case UnitTokens:
		return formatNum(x) + " tokens"
	case UnitItems:
		if x == 1 {
			return "1 item"
		}
		return formatNum(x) + " items"
	}
	return formatNum(x)
}

func formatNum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return fmt.Sprintf("%d", int64(x))
	}
	return fmt.Sprintf("%.4g", Round9(x))
}
