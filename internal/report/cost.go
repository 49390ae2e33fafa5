package report

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/rubric"
)

// Cost is what the check's model calls cost, priced from the tokens each result and
// each judge call recorded. Amounts are US dollars; a nil amount is unknown (some
// model has no price: Unknown names it), never 0.
type Cost struct {
	// Table names the price table and its date: "evalgate prices v1 (2026-11-25)".
	Table string `json:"table"`
	// PerRunUSD is the mean of the full runs' cost_usd; PerItemUSD and PerCorrectUSD
	// the means of cost_per_item_usd and cost_per_correct_usd.
	PerRunUSD     *float64 `json:"per_run_usd"`
	PerItemUSD    *float64 `json:"per_item_usd,omitempty"`
	PerCorrectUSD *float64 `json:"per_correct_usd,omitempty"`
	// SystemUSD is the system under test over every run of the check, re-runs of some
	// items included.
	SystemUSD *float64 `json:"system_usd"`
	// JudgeUSD is what the judges' calls made by this check cost (paid), each counted
	// once; JudgingUSD is the judging's cost with the cache hits priced too, as the
	// judge_cost_usd metric and its gates read it (rubric.JudgeCost.JudgingUSD).
	// Absent without a judge.
	JudgeUSD       *float64 `json:"judge_usd,omitempty"`
	JudgingUSD     *float64 `json:"judging_usd,omitempty"`
	JudgeCalls     int      `json:"judge_calls,omitempty"`
	JudgeCacheHits int      `json:"judge_cache_hits,omitempty"`
	// ExtraUSD is the cost of item re-runs priced outside this check (settle's), added
	// with AddReruns.
	ExtraUSD float64 `json:"extra_usd,omitempty"`
	// TotalUSD is the pull request's: SystemUSD + JudgeUSD + ExtraUSD.
	TotalUSD *float64 `json:"total_usd"`
	// Unknown lists what has no price ("judge m" for a judge's model).
	Unknown []string `json:"unknown,omitempty"`
	// BaselinePerRunUSD is the baseline's cost_usd (nil when the baseline was recorded
	// before evalgate measured cost); Change is (PerRun − baseline) / baseline, as a
	// max_increase gate on cost_usd reads it (gate.RelativeChange), ChangeInfinite set
	// instead when the baseline cost $0 and the PR more.
	BaselinePerRunUSD *float64 `json:"baseline_per_run_usd,omitempty"`
	Change            *float64 `json:"change,omitempty"`
	ChangeInfinite    bool     `json:"change_infinite,omitempty"`
	// BaselineHasCost is false when there is a baseline that records no cost.
	BaselineHasCost bool `json:"baseline_has_cost"`
	// BaselineJudgingUSD is the baseline's judge_cost_usd, cache hits priced (absent
	// when it records none, or only what its calls were paid:
	// baseline.ComparableMetrics); JudgingChange is the change to JudgingUSD, as
	// Change is to PerRunUSD.
	BaselineJudgingUSD    *float64 `json:"baseline_judging_usd,omitempty"`
	JudgingChange         *float64 `json:"judging_change,omitempty"`
	JudgingChangeInfinite bool     `json:"judging_change_infinite,omitempty"`
}

// buildCost prices the check; nil when nothing recorded tokens and no judge called a
// model.
func buildCost(sc *rubric.Scored, cmp *baseline.Comparison, table string) *Cost {
	jc := sc.JudgeCost
	judged := jc != nil && (jc.Calls > 0 || !jc.Known)
	var sys float64
	priced := false
	for _, run := range sc.Runs {
		if v, ok := run.Metrics[rubric.MetricCostUSD]; ok {
			sys += v
			priced = true
		}
	}
	if !priced && len(sc.CostUnknown) == 0 && !judged {
		return nil
	}
	c := &Cost{Table: table, Unknown: sc.CostUnknown}
	get := func(name string) *float64 {
		if v, ok := sc.Metrics[name]; ok {
			return &v
		}
		return nil
	}
	sutKnown := true
	for _, m := range sc.CostUnknown {
		sutKnown = sutKnown && strings.HasPrefix(m, "judge ")
	}
	if sutKnown {
		c.PerRunUSD, c.PerItemUSD, c.PerCorrectUSD = get(rubric.MetricCostUSD), get(rubric.MetricCostPerItemUSD), get(rubric.MetricCostPerCorrectUSD)
		s := rubric.Round9(sys)
		c.SystemUSD = &s
	}
	if jc != nil {
		c.JudgeCalls, c.JudgeCacheHits = jc.Calls, jc.CacheHits
		if jc.Known {
			all := jc.JudgingUSD()
			c.JudgeUSD, c.JudgingUSD = &jc.USD, &all
		}
	}
	c.total()
	if cmp != nil {
		c.setBaseline(cmp.BaselineMetrics)
	}
	return c
}

// SnapshotCost is the cost of saved run B beside saved run A (`evalgate compare`'s),
// read from the metrics each recorded (baseline.ComparableMetrics): B's per-run cost
// and judging's cost, and their change from A's. Nil when B recorded neither. It knows
// no price table (each run was priced when it was checked) and no judge calls.
func SnapshotCost(a, b map[string]float64) *Cost {
	get := func(name string) *float64 {
		if v, ok := b[name]; ok {
			return &v
		}
		return nil
	}
	c := &Cost{PerRunUSD: get(rubric.MetricCostUSD), PerItemUSD: get(rubric.MetricCostPerItemUSD),
		PerCorrectUSD: get(rubric.MetricCostPerCorrectUSD), JudgingUSD: get(rubric.MetricJudgeCostUSD)}
	if c.PerRunUSD == nil && c.JudgingUSD == nil {
		return nil
	}
	c.setBaseline(a)
	return c
}

// setBaseline sets what the baseline's metrics say of cost, and the changes to it.
func (c *Cost) setBaseline(metrics map[string]float64) {
	if b, ok := metrics[rubric.MetricCostUSD]; ok {
		c.BaselineHasCost = true
		c.BaselinePerRunUSD = &b
		if c.PerRunUSD != nil {
			c.Change, c.ChangeInfinite = gate.JSONChange(gate.RelativeChange(b, *c.PerRunUSD))
		}
	}
	if b, ok := metrics[rubric.MetricJudgeCostUSD]; ok {
		c.BaselineJudgingUSD = &b
		if c.JudgingUSD != nil {
			c.JudgingChange, c.JudgingChangeInfinite = gate.JSONChange(gate.RelativeChange(b, *c.JudgingUSD))
		}
	}
}

// total sets TotalUSD when every part is known.
func (c *Cost) total() {
	c.TotalUSD = nil
	if c.SystemUSD == nil || (c.JudgeUSD == nil && (c.JudgeCalls > 0 || c.judgeUnknown())) {
		return
	}
	t := *c.SystemUSD + c.ExtraUSD
	if c.JudgeUSD != nil {
		t += *c.JudgeUSD
	}
	t = rubric.Round9(t)
	c.TotalUSD = &t
}

func (c *Cost) judgeUnknown() bool {
	for _, m := range c.Unknown {
		if strings.HasPrefix(m, "judge ") {
			return true
		}
	}
	return false
}

// AddReruns adds the cost of item re-runs made outside this check (a settle's) to the
// pull request's total.
func (c *Cost) AddReruns(usd float64) {
	if c == nil {
		return
	}
	c.ExtraUSD = rubric.Round9(c.ExtraUSD + usd)
	c.total()
}

// costLine is the report's one line on cost, the same in every format:
// "cost $0.84 → $1.12 per run (+33 %) · $0.0011 per item · … · priced with …".
func (r *Report) costLine() string { return r.Cost.Line(r.Comparison != nil) }

// Line is the one line on cost, as check's report and compare's print it; compared
// says there is a baseline (whose lack of cost the line then mentions). "" for a nil
// Cost.
func (c *Cost) Line(compared bool) string {
	if c == nil {
		return ""
	}
	var parts []string
	sut := ""
	switch {
	case c.PerRunUSD != nil && c.BaselinePerRunUSD != nil:
		sut = fmt.Sprintf("cost %s → %s per run", pricing.Dollars(*c.BaselinePerRunUSD), pricing.Dollars(*c.PerRunUSD))
		if ch := gate.ChangeText(c.Change, c.ChangeInfinite); ch != "" {
			sut += " (" + ch + ")"
		}
	case c.PerRunUSD != nil:
		sut = "cost " + pricing.Dollars(*c.PerRunUSD) + " per run"
		if compared && !c.BaselineHasCost {
			sut += " (the baseline records no cost)"
		}
	case c.SystemUSD != nil:
		sut = "cost of the system under test: " + pricing.Dollars(*c.SystemUSD)
	}
	if sut != "" {
		parts = append(parts, sut)
	}
	if c.PerItemUSD != nil {
		parts = append(parts, pricing.Dollars(*c.PerItemUSD)+" per item")
	}
	if c.PerCorrectUSD != nil {
		parts = append(parts, pricing.Dollars(*c.PerCorrectUSD)+" per correct answer")
	}
	switch {
	case c.JudgeUSD != nil && c.JudgeCacheHits > 0 && c.JudgingUSD != nil:
		parts = append(parts, fmt.Sprintf("judge %s paid (%d call(s)), %s with the cache's %d hit(s) priced",
			pricing.Dollars(*c.JudgeUSD), c.JudgeCalls, pricing.Dollars(*c.JudgingUSD), c.JudgeCacheHits))
	case c.JudgeUSD != nil:
		parts = append(parts, fmt.Sprintf("judge %s (%d call(s))", pricing.Dollars(*c.JudgeUSD), c.JudgeCalls))
	case c.JudgingUSD != nil && c.BaselineJudgingUSD != nil: // saved runs (SnapshotCost): no calls known
		j := fmt.Sprintf("judging %s → %s", pricing.Dollars(*c.BaselineJudgingUSD), pricing.Dollars(*c.JudgingUSD))
		if ch := gate.ChangeText(c.JudgingChange, c.JudgingChangeInfinite); ch != "" {
			j += " (" + ch + ")"
		}
		parts = append(parts, j+", cache hits priced")
	case c.JudgingUSD != nil:
		parts = append(parts, "judging "+pricing.Dollars(*c.JudgingUSD)+", cache hits priced")
	}
	if c.ExtraUSD > 0 {
		parts = append(parts, "re-runs "+pricing.Dollars(c.ExtraUSD))
	}
	// The PR's total, unless it is the one run's cost again: other runs, re-runs of some
	// items (--rerun, settle's) and judges add to it. (The line is made before the
	// report's runs are filled in: they cannot tell.)
	if c.TotalUSD != nil && (c.JudgeUSD != nil || c.PerRunUSD == nil || *c.TotalUSD != *c.PerRunUSD) {
		parts = append(parts, "this PR "+pricing.Dollars(*c.TotalUSD))
	}
	if len(c.Unknown) > 0 {
		// The line is trusted text whose `backticks` are code, and a model's name comes
		// from the results files: none of its backticks may open a code span.
		names := strings.ReplaceAll(strings.Join(c.Unknown, ", "), "`", `\x60`)
		parts = append(parts, "cost unknown: "+names+" (add the price under `pricing:`)")
	}
	if c.Table != "" {
		parts = append(parts, "priced with "+c.Table)
	}
	return strings.Join(parts, " · ")
}

// costRuns are the rows of the HTML report's runs table: each run's file, score, pass
// rate and cost ("unknown" when a model has no price); nil without a cost.
func (r *Report) costRuns() [][]string {
	if r.Cost == nil {
		return nil
	}
	var rows [][]string
	for _, run := range r.Runs {
		cost := "unknown"
		if v, ok := run.Metrics[rubric.MetricCostUSD]; ok {
			cost = pricing.Dollars(v)
		}
		rows = append(rows, []string{run.File, fmt.Sprintf("%.3f", run.Mean), fmt.Sprintf("%.1f%%", 100*run.PassRate), cost})
	}
	return rows
}
