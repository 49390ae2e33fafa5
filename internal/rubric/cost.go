package rubric

import (
	"math"
	"slices"
	"sort"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/pricing"
)

// Cost metric names. cost_usd, cost_per_item_usd and cost_per_correct_usd are per run
// (the summary holds their mean over runs); judge_cost_usd is the judges' calls made
// by this check, counted once, with cache hits free.
const (
	MetricCostUSD           = "cost_usd"
	MetricCostPerItemUSD    = "cost_per_item_usd"
	MetricCostPerCorrectUSD = "cost_per_correct_usd"
	MetricJudgeCostUSD      = "judge_cost_usd"
)

// CostMetrics are the cost metric names, in the order reports show them.
var CostMetrics = []string{MetricCostUSD, MetricCostPerItemUSD, MetricCostPerCorrectUSD, MetricJudgeCostUSD}

// IsCostMetric reports whether a metric is one of CostMetrics.
func IsCostMetric(name string) bool { return slices.Contains(CostMetrics, name) }

// JudgeCost is what the judges' calls of one check cost. A shard's report carries it,
// so merged shards add up their judges' spend.
type JudgeCost struct {
	// USD is the priced calls' cost; Known is false when a judge that made calls has
	// no price (Unknown then names its model, as Scored.CostUnknown does: "judge m").
	USD     float64  `json:"usd"`
	Known   bool     `json:"known"`
	Unknown []string `json:"unknown,omitempty"`
	// Calls are the calls made; CacheHits the verdicts that cost nothing.
	Calls     int `json:"calls"`
	CacheHits int `json:"cache_hits"`
}

// mergeJudgeCost adds the shards' judge spend up (cache hits and calls as made by each
// shard's check) and sets judge_cost_usd when every shard's is known. Shards that
// carry none (made before shards carried it, or without a judge) add nothing.
func (sc *Scored) mergeJudgeCost(parts []ShardPart) {
	var jc *JudgeCost
	for _, p := range parts {
		if p.Judge == nil {
			continue
		}
		if jc == nil {
			jc = &JudgeCost{Known: true}
		}
		jc.USD += p.Judge.USD
		jc.Known = jc.Known && p.Judge.Known
		jc.Calls += p.Judge.Calls
		jc.CacheHits += p.Judge.CacheHits
		for _, m := range p.Judge.Unknown {
			if !slices.Contains(jc.Unknown, m) {
				jc.Unknown = append(jc.Unknown, m)
			}
		}
	}
	if jc == nil {
		return
	}
	sort.Strings(jc.Unknown)
	jc.USD = Round9(jc.USD)
	sc.JudgeCost = jc
	sc.CostUnknown = append(sc.CostUnknown, jc.Unknown...)
	sort.Strings(sc.CostUnknown)
	sc.CostUnknown = slices.Compact(sc.CostUnknown)
	if jc.Known {
		sc.Metrics[MetricJudgeCostUSD] = jc.USD
	}
}

// putCost prices the sample of item i from the tokens its result recorded.
func (c *sampleCols) putCost(i int, r *eval.Result) {
	if c.pricer == nil || (r.InputTokens == nil && r.OutputTokens == nil) {
		return
	}
	u := pricing.Usage{}
	if r.InputTokens != nil {
		u.Input = *r.InputTokens
	}
	if r.OutputTokens != nil {
		u.Output = *r.OutputTokens
	}
	if r.CachedInputTokens != nil {
		u.CachedInput = *r.CachedInputTokens
	}
	model := c.pricer.Model(r.Model)
	usd, ok := c.pricer.Cost(model, u)
	if !ok {
		c.unknownCost(model, 1)
		return
	}
	c.putNum(&c.cost, i, &usd)
}

func (c *sampleCols) unknownCost(model string, n int) {
	if c.costUnknown == nil {
		c.costUnknown = map[string]int{}
	}
	c.costUnknown[model] += n
}

// unknownModels lists the models without a price, sorted.
func (c *sampleCols) unknownModels() []string {
	out := make([]string, 0, len(c.costUnknown))
	for m := range c.costUnknown {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// costMetrics adds a run's cost metrics: only when some sample was priced and none
// had a model without a price (a cost that leaves some out is unknown, not lower).
// answered is the number of items with a result, correct the correct answers.
func (c *sampleCols) costMetrics(m Metrics, answered, correct int) {
	if len(c.costUnknown) > 0 || c.cost == nil {
		return
	}
	sum, priced := 0.0, 0
	for i, x := range c.cost {
		if !math.IsNaN(x) && c.flags[i]&fPresent != 0 {
			sum += x
			priced++
		}
	}
	if priced == 0 {
		return
	}
	m[MetricCostUSD] = Round9(sum)
	m[MetricCostPerItemUSD] = Round9(sum / float64(max(answered, 1)))
	// as tokens_per_correct_answer: cost / max(count(correct), 1)
	m[MetricCostPerCorrectUSD] = Round9(sum / float64(max(correct, 1)))
}

// setCostUnknown fills each run's CostUnknown and the scoring's, from the columns.
func (sc *Scored) setCostUnknown() {
	seen := map[string]bool{}
	for r := range sc.Runs {
		sc.Runs[r].CostUnknown = sc.cols[r].unknownModels()
		for _, m := range sc.Runs[r].CostUnknown {
			seen[m] = true
		}
	}
	sc.CostUnknown = sc.CostUnknown[:0]
	for m := range seen {
		sc.CostUnknown = append(sc.CostUnknown, m)
	}
	sort.Strings(sc.CostUnknown)
}

// addJudgeCost prices the calls the judges made (each judge's configured model) and
// sets judge_cost_usd; a judge that made no call cost nothing, whatever its model.
func (sc *Scored) addJudgeCost() {
	sc.setCostUnknown()
	evs := sc.System.Evaluators()
	if len(evs) == 0 || sc.System.Pricer == nil {
		return
	}
	jc := &JudgeCost{Known: true}
	for _, e := range evs {
		st := e.Stats
		jc.Calls += st.Calls
		jc.CacheHits += st.CacheHits
		if st.PromptTokens == 0 && st.CompletionTokens == 0 {
			continue
		}
		model := sc.System.Pricer.Model(e.Metadata.EvaluatorModelID)
		usd, ok := sc.System.Pricer.Cost(model, pricing.Usage{
			Input: float64(st.PromptTokens), CachedInput: float64(st.CachedPromptTokens), Output: float64(st.CompletionTokens)})
		if !ok {
			jc.Known = false
			jc.Unknown = append(jc.Unknown, "judge "+model)
			sc.CostUnknown = append(sc.CostUnknown, "judge "+model)
			continue
		}
		jc.USD += usd
	}
	sort.Strings(sc.CostUnknown)
	jc.USD = Round9(jc.USD)
	sc.JudgeCost = jc
	if jc.Known {
		sc.Metrics[MetricJudgeCostUSD] = jc.USD
	}
}
