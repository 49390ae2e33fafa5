package diagnose

import (
	"fmt"
	"math"

	"github.com/evalgate/evalgate/internal/rubric"
)

// budgets are the run metrics whose rise against the baseline is drift. minRise is the
// least rise, in the metric's unit, that counts: a system answering in a few
// milliseconds (a stand-in script) moves by more than its share with the machine's
// load, and a rise under 50 ms is no latency budget a reviewer acts on.
var budgets = []struct {
	metric, label, unit string
	minRise             float64
}{
	{rubric.MetricLatencyE2EP50, "latency p50", "ms", minLatencyRiseMs},
	{rubric.MetricLatencyE2EP95, "latency p95", "ms", minLatencyRiseMs},
	{"tokens_per_item", "tokens per item", "tokens", 0},
}

// minLatencyRiseMs is the least latency rise budget_drift reports.
const minLatencyRiseMs = 50

// budgetDrift: latency or token budgets rising against the baseline by more than the
// allowed share.
func budgetDrift(c settings, in Input) []Finding {
	if !c.driftOn || in.BaselineMetrics == nil {
		return nil
	}
	cand := withPerItem(in.Scored.Metrics)
	base := withPerItem(in.BaselineMetrics)
	var out []Finding
	for _, b := range budgets {
		bv, okB := base[b.metric]
		cv, okC := cand[b.metric]
		if !okB || !okC || bv <= 0 {
			continue
		}
		rise := cv/bv - 1
		if rise <= c.driftIncrease+1e-9 || cv-bv < b.minRise {
			continue
		}
		spread := ""
		if vals := in.BaselineRuns[b.metric]; len(vals) >= 2 {
			_, hi := spreadOf(vals)
			if cv <= hi {
				continue // inside what the baseline's own runs do
			}
			spread = fmt.Sprintf(", beyond the baseline's run-to-run spread (up to %s %s over %d runs)", short(hi), b.unit, len(vals))
		}
		out = append(out, Finding{Rule: RuleBudgetDrift,
			Message: fmt.Sprintf("%s rose %.0f%% against the baseline (%s → %s %s, more than +%.0f%%%s): the budget is drifting.",
				b.label, 100*rise, short(bv), short(cv), b.unit, 100*c.driftIncrease, spread)})
	}
	return out
}

// spreadOf is the run-to-run spread of a baseline's per-run values: from the mean
// minus to the mean plus three sample standard deviations, widened to the lowest and
// highest run. A run of the same system lands inside it nearly always (three standard
// deviations hold 99.7 % of a normal spread), so a figure inside is noise, not drift.
func spreadOf(vals []float64) (lo, hi float64) {
	n := float64(len(vals))
	mean := 0.0
	lo, hi = vals[0], vals[0]
	for _, v := range vals {
		mean += v / n
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	ss := 0.0
	for _, v := range vals {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	return math.Min(lo, mean-3*sd), math.Max(hi, mean+3*sd)
}

// withPerItem adds tokens_per_item (total tokens over scored items), so suites of
// different sizes compare.
func withPerItem(m map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range m {
		out[k] = v
	}
	if t, ok := m[rubric.MetricTotalTokens]; ok {
		if n := m[rubric.MetricScoredItems]; n > 0 {
			out["tokens_per_item"] = t / n
		}
	}
	return out
}

func short(x float64) string {
	if x == float64(int64(x)) {
		return fmt.Sprintf("%d", int64(x))
	}
	return fmt.Sprintf("%.1f", x)
}
