package rubric

import (
	"fmt"
	"math"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/stats"
)

// RunState is one run's scored samples as a shard's report carries them, so shards
// can be merged into the scoring of the whole suite: the compact per-item numbers, in
// the shard's suite order. Null in Raw and the result numbers means not recorded.
type RunState struct {
	File     string                `json:"file"`
	Score    []float64             `json:"score"`
	Flags    []uint8               `json:"flags"`
	Norm     []float64             `json:"norm"` // item × dimension
	Raw      []*float64            `json:"raw"`
	Excluded []int                 `json:"excluded,omitempty"` // item × dimension indexes
	Labels   map[int]string        `json:"labels,omitempty"`
	Errors   map[int]string        `json:"errors,omitempty"`
	Notes    map[int]string        `json:"notes,omitempty"` // read from older partial reports, not used: notes come with the items' captured parts
	CappedBy map[int]string        `json:"capped_by,omitempty"`
	Why      map[int]string        `json:"why,omitempty"`
	Numbers  map[string][]*float64 `json:"numbers,omitempty"` // latency_e2e_ms, latency_model_ms, input_tokens, output_tokens
	// Sketches replace a latency's Numbers when the run has more of them than
	// stats.ExactQuantilesUpTo: the percentiles are estimates anyway, and the sketch
	// merges exactly.
	Sketches  map[string]*stats.SketchState `json:"sketches,omitempty"`
	ModelItem int                           `json:"model_item"` // item whose result first named a model (−1: none)
	Model     string                        `json:"model,omitempty"`
	// CostUnknown counts the samples whose model has no price, by model.
	CostUnknown map[string]int `json:"cost_unknown,omitempty"`
}

var numberCols = []string{"latency_e2e_ms", "latency_model_ms", "input_tokens", "output_tokens", "cost_usd"}

func (c *sampleCols) numbers() [][]float64 {
	return [][]float64{c.e2e, c.model, c.inTok, c.outTok, c.cost}
}

// State is the scoring's per-run state, for a shard's report.
func (sc *Scored) State() []RunState {
	var out []RunState
	for r, c := range sc.cols {
		st := RunState{File: sc.Runs[r].File, Score: c.score, Flags: c.flags, Norm: c.norm, Labels: c.label,
			Errors: c.errs, CappedBy: c.cappedBy, Why: c.whyMap(), ModelItem: c.modelIdx, Model: c.modelName,
			CostUnknown: c.costUnknown}
		c.ensureRaw()
		st.Raw = nullable(c.raw)
		for k, f := range c.dflags {
			if f&dimExcluded != 0 {
				st.Excluded = append(st.Excluded, k)
			}
		}
		lat := c.latencies()
		for k, col := range c.numbers() {
			if k < len(lat) && lat[k].Sketched() {
				if st.Sketches == nil {
					st.Sketches = map[string]*stats.SketchState{}
				}
				st.Sketches[numberCols[k]] = lat[k].State()
				continue
			}
			if col != nil {
				if st.Numbers == nil {
					st.Numbers = map[string][]*float64{}
				}
				st.Numbers[numberCols[k]] = nullable(col)
			}
		}
		out = append(out, st)
	}
	return out
}

func nullable(xs []float64) []*float64 {
	out := make([]*float64, len(xs))
	for i := range xs {
		if !math.IsNaN(xs[i]) {
			out[i] = &xs[i]
		}
	}
	return out
}

// ShardPart is one shard's runs, where its items sit in the whole suite, and what its
// judges' calls cost (nil: no judge, or a shard report older than judge costs).
type ShardPart struct {
	Pos   []int // per item of the shard, its position in the whole suite
	Runs  []RunState
	Judge *JudgeCost
}

// Merge joins shards' states into the scoring of the whole suite (whose items are in
// suite order). Every sum then runs in suite order, so the result is the unsharded
// run's to the last bit.
func Merge(sys *System, suite *eval.Index, parts []ShardPart) (*Scored, error) {
	n, nd := suite.Len(), len(sys.Dimensions)
	if len(parts) == 0 || len(parts[0].Runs) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	runs := len(parts[0].Runs)
	out := &Scored{System: sys, Suite: suite}
	for r := range runs {
		c := newCols(nd, n)
		for _, p := range parts {
			if len(p.Runs) != runs {
				return nil, fmt.Errorf("shards have %d and %d runs", runs, len(p.Runs))
			}
			st := p.Runs[r]
			if err := c.absorb(st, p.Pos, nd); err != nil {
				return nil, fmt.Errorf("run %s: %w", st.File, err)
			}
		}
		rs := RunScore{File: parts[0].Runs[r].File}
		for i := range suite.Len() {
			if c.flags[i]&fPresent == 0 {
				rs.Missing = append(rs.Missing, suite.ID(i))
			}
		}
		out.cols = append(out.cols, c)
		out.Runs = append(out.Runs, rs)
	}
	for r := range out.Runs {
		out.Runs[r].Metrics, out.Runs[r].Estimates = sys.runMetrics(out.cols[r])
		out.Runs[r].Model = out.cols[r].modelName
	}
	out.Metrics, out.MetricsStd = acrossRuns(out.Runs)
	out.setCostUnknown()
	out.mergeJudgeCost(parts)
	return out, nil
}

// absorb copies a shard's run state into the columns at the items' places.
func (c *sampleCols) absorb(st RunState, pos []int, nd int) error {
	m := len(pos)
	if len(st.Score) != m || len(st.Flags) != m || len(st.Norm) != m*nd || len(st.Raw) != m*nd {
		return fmt.Errorf("state of %d items has %d scores, %d flags, %d values", m, len(st.Score), len(st.Flags), len(st.Norm))
	}
	c.ensureRaw()
	for k, p := range pos {
		c.score[p], c.flags[p] = st.Score[k], st.Flags[k]
		for d := range nd {
			c.norm[p*nd+d] = st.Norm[k*nd+d]
			if v := st.Raw[k*nd+d]; v != nil {
				c.raw[p*nd+d] = *v
			}
		}
		if s, ok := st.CappedBy[k]; ok {
			c.cappedBy[p] = s
		}
		if s, ok := st.Why[k]; ok {
			c.setWhy(p, s)
		}
	}
	for _, x := range st.Excluded {
		if x < 0 || x >= m*nd {
			return fmt.Errorf("excluded value %d out of range", x)
		}
		c.dflags[pos[x/nd]*nd+x%nd] |= dimExcluded
	}
	for _, p := range []struct {
		src map[int]string
		dst map[int]string
		bit uint8
	}{{st.Labels, c.label, dimLabel}, {st.Errors, c.errs, dimError}} {
		for x, s := range p.src {
			if x < 0 || x >= m*nd {
				return fmt.Errorf("value %d out of range", x)
			}
			c.setStr(p.dst, pos[x/nd]*nd+x%nd, p.bit, s)
		}
	}
	cols := []*[]float64{&c.e2e, &c.model, &c.inTok, &c.outTok, &c.cost}
	for k, name := range numberCols {
		vals, ok := st.Numbers[name]
		if !ok {
			continue
		}
		if len(vals) != m {
			return fmt.Errorf("%s has %d values for %d items", name, len(vals), m)
		}
		for j, v := range vals {
			if v != nil {
				c.putNum(cols[k], pos[j], v)
			}
		}
	}
	for m, n := range st.CostUnknown {
		c.unknownCost(m, n)
	}
	if err := c.mergeSketches(st.Sketches); err != nil {
		return err
	}
	if st.ModelItem >= 0 && st.ModelItem < m && st.Model != "" {
		if p := pos[st.ModelItem]; c.modelIdx < 0 || p < c.modelIdx {
			c.modelIdx, c.modelName = p, st.Model
		}
	}
	return nil
}
