package rubric

import (
	"math"
	"slices"
	"sort"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/pricing"
)

// Cost metric names. cost_usd, cost_per_item_usd and cost_per_correct_usd are per run
// (the summary holds their mean over runs); judge_cost_usd is the cost of this check's
// judging as if every verdict were paid (JudgeCost.JudgingUSD): the calls made, and
// the cache hits priced at the tokens their cache entries recorded, so a warm or cold
// judge cache never moves it.
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
	// USD is what the calls made by this check cost (what was paid); CachedUSD prices
	// the cache hits at the tokens their entries recorded when their verdicts were
	// made (what they would cost judged again). Known is false when a judge with
	// tokens to price has no price (Unknown then names its model, as
	// Scored.CostUnknown does: "judge m").
	USD       float64  `json:"usd"`
	CachedUSD float64  `json:"cached_usd,omitempty"`
	Known     bool     `json:"known"`
	Unknown   []string `json:"unknown,omitempty"`
	// Calls are the calls made; CacheHits the verdicts read from the cache.
	Calls     int `json:"calls"`
	CacheHits int `json:"cache_hits"`
}

// JudgingUSD is the one rule for the judging's cost that metrics, gates and baselines
// read: every verdict priced as if paid (USD + CachedUSD). What was paid (USD) goes
// into the pull request's total only.
func (jc *JudgeCost) JudgingUSD() float64 { return Round9(jc.USD + jc.CachedUSD) }

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
		jc.CachedUSD += p.Judge.CachedUSD
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
	jc.USD, jc.CachedUSD = Round9(jc.USD), Round9(jc.CachedUSD)
	sc.JudgeCost = jc
	sc.CostUnknown = append(sc.CostUnknown, jc.Unknown...)
	sort.Strings(sc.CostUnknown)
	sc.CostUnknown = slices.Compact(sc.CostUnknown)
	if jc.Known {
		sc.Metrics[MetricJudgeCostUSD] = jc.JudgingUSD()
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

// addJudgeCost prices the calls the judges made and their cache hits (each judge's
// configured model) and sets judge_cost_usd; a judge with no tokens to price (no call,
// only verdicts recorded without a model) cost nothing, whatever its model.
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
		paid := judge.Usage{PromptTokens: st.PromptTokens, CompletionTokens: st.CompletionTokens, CachedPromptTokens: st.CachedPromptTokens}
		if paid == (judge.Usage{}) && st.HitUsage == (judge.Usage{}) {
			continue
		}
		model := sc.System.Pricer.Model(e.Metadata.EvaluatorModelID)
		usd, ok := sc.System.Pricer.Cost(model, judgeUsage(paid))
		hits, _ := sc.System.Pricer.Cost(model, judgeUsage(st.HitUsage))
		if !ok {
			jc.Known = false
			jc.Unknown = append(jc.Unknown, "judge "+model)
			sc.CostUnknown = append(sc.CostUnknown, "judge "+model)
			continue
		}
		jc.USD += usd
		jc.CachedUSD += hits
	}
	sort.Strings(sc.CostUnknown)
	jc.USD, jc.CachedUSD = Round9(jc.USD), Round9(jc.CachedUSD)
	sc.JudgeCost = jc
	if jc.Known {
		sc.Metrics[MetricJudgeCostUSD] = jc.JudgingUSD()
	}
}

// judgeUsage is a judge's token counts as the price table reads them.
func judgeUsage(u judge.Usage) pricing.Usage {
	return pricing.Usage{Input: float64(u.PromptTokens), CachedInput: float64(u.CachedPromptTokens), Output: float64(u.CompletionTokens)}
}
