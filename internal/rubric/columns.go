package rubric

import (
	"math"

	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/stats"
)

// sampleCols holds one run's scored samples compactly, indexed by suite item (and by
// item × dimension): the few numbers the summary, the comparison and the report need,
// never the output. A million items with four dimensions take about 80 MB per run.
type sampleCols struct {
	partial bool // a re-run of some items: absent items are not part of the run
	nd      int
	score   []float64
	flags   []uint8
	norm    []float64 // [item*nd+d]
	raw     []float64 // [item*nd+d]; NaN is null. nil while every raw value equals its norm (rawOf)
	dflags  []uint8   // [item*nd+d]: dimExcluded, and which of label, errs it has
	// Rare strings, by index, interned; dflags says which a value has, so reading a
	// sample looks up only those. A value's note is not kept: the report takes an
	// item's notes from its first sample, captured while scoring.
	label, errs map[int]string // [item*nd+d]
	cappedBy    map[int]string // [item]
	// why the item failed: an index into whys (0: none). Most failing items share a
	// few reasons, so a column of indexes holds them without a pointer per item.
	why    []uint32
	whys   []string
	whyIdx map[string]uint32
	// Result fields the metrics read; nil until a record has one. NaN: not recorded.
	e2e, model, inTok, outTok []float64
	// latSketch are the e2e and model latencies of merged shards whose partial reports
	// carried a sketch instead (percentile.go); nil otherwise.
	latSketch [2]*stats.Quantiles
	// The first model name recorded, in suite order.
	modelIdx  int
	modelName string
	// cost is each sample's price in USD (NaN: no tokens recorded, or its model has
	// no price); costUnknown counts the samples with tokens whose model has no price,
	// by model. pricer prices them (nil: cost is not computed).
	cost        []float64
	costUnknown map[string]int
	pricer      *pricing.Pricer
}

const (
	fPresent  uint8 = 1 << iota // the run has a result for the item
	fPass                       // the sample passes
	fPending                    // every dimension n/a or stale
	fTimedOut                   // the result timed out
	fError                      // the result carries an error
)

const (
	dimExcluded uint8 = 1 << iota
	dimLabel
	dimError
)

func newCols(nd, n int) *sampleCols {
	c := &sampleCols{nd: nd, modelIdx: -1, label: map[int]string{}, errs: map[int]string{},
		cappedBy: map[int]string{}, whys: []string{""}, whyIdx: map[string]uint32{}}
	c.grow(n)
	return c
}

// grow makes room for n items; new items are missing.
func (c *sampleCols) grow(n int) {
	for len(c.score) < n {
		c.score = append(c.score, 0)
		c.flags = append(c.flags, 0)
		c.why = append(c.why, 0)
		for range c.nd {
			c.norm = append(c.norm, 0)
			if c.raw != nil {
				c.raw = append(c.raw, math.NaN())
			}
			c.dflags = append(c.dflags, 0)
		}
		for _, col := range []*[]float64{&c.e2e, &c.model, &c.inTok, &c.outTok, &c.cost} {
			if *col != nil {
				*col = append(*col, math.NaN())
			}
		}
	}
}

func (c *sampleCols) len() int { return len(c.score) }

// interner shares equal strings (reasons, labels, errors) among samples.
type interner map[string]string

func (in interner) of(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := in[s]; ok {
		return v
	}
	in[s] = s
	return s
}

// put records a scored sample of item i.
func (c *sampleCols) put(i int, sm *Sample, in interner) {
	f := fPresent
	if sm.Pass {
		f |= fPass
	}
	if sm.Pending {
		f |= fPending
	}
	c.score[i] = sm.Score
	if sm.CappedBy != "" {
		c.cappedBy[i] = in.of(sm.CappedBy)
	}
	c.setWhy(i, sm.Why)
	if c.raw == nil {
		for _, v := range sm.Values {
			if v.Raw == nil || math.Float64bits(*v.Raw) != math.Float64bits(v.Norm) {
				c.ensureRaw() // before item i's values are written: they are not present yet
				break
			}
		}
	}
	for d, v := range sm.Values {
		k := i*c.nd + d
		c.norm[k] = v.Norm
		if c.raw != nil {
			c.raw[k] = math.NaN()
			if v.Raw != nil {
				c.raw[k] = *v.Raw
			}
		}
		if v.Excluded {
			c.dflags[k] |= dimExcluded
		}
		c.setStr(c.label, k, dimLabel, in.of(v.Label))
		c.setStr(c.errs, k, dimError, in.of(v.Error))
	}
	if r := sm.Result; r != nil {
		if r.TimedOut {
			f |= fTimedOut
		}
		if r.Error != "" {
			f |= fError
		}
		c.putNum(&c.e2e, i, r.LatencyE2EMs)
		c.putNum(&c.model, i, r.LatencyModelMs)
		c.putNum(&c.inTok, i, r.InputTokens)
		c.putNum(&c.outTok, i, r.OutputTokens)
		if r.Model != "" && (c.modelIdx < 0 || i < c.modelIdx) {
			c.modelIdx, c.modelName = i, r.Model
		}
		c.putCost(i, r)
	}
	c.flags[i] = f
}

func (c *sampleCols) putNum(col *[]float64, i int, p *float64) {
	if p == nil {
		return
	}
	if *col == nil {
		*col = make([]float64, len(c.score))
		for j := range *col {
			(*col)[j] = math.NaN()
		}
	}
	(*col)[i] = *p
}

// sample rebuilds item i's sample (without its result and its values' notes: a report
// takes an item's notes from its first sample, captured while scoring) into sm,
// reusing sm's slices.
func (c *sampleCols) sample(s *System, i int, sm *Sample) {
	values, weighted := sm.Values[:0], sm.Weighted[:0]
	*sm = Sample{}
	for range c.nd {
		values = append(values, Value{})
		weighted = append(weighted, 0)
	}
	sm.Values, sm.Weighted = values, weighted
	f := c.flags[i]
	if f&fPresent == 0 {
		sm.Missing = true
		sm.Why = "no result (missing)"
		return
	}
	for d := range c.nd {
		k := i*c.nd + d
		df := c.dflags[k]
		v := Value{Norm: c.norm[k], Excluded: df&dimExcluded != 0}
		if df&dimLabel != 0 {
			v.Label = c.label[k]
		}
		if df&dimError != 0 {
			v.Error = c.errs[k]
		}
		if v.Raw = c.rawOf(k); v.Raw != nil && math.IsNaN(*v.Raw) {
			v.Raw = nil
		}
		sm.Values[d] = v
	}
	s.weigh(sm)
	sm.Score = c.score[i]
	if len(c.cappedBy) > 0 {
		sm.CappedBy = c.cappedBy[i]
	}
	sm.Why = c.whys[c.why[i]]
	sm.Pass = f&fPass != 0
	sm.Pending = f&fPending != 0
}

// ensureRaw gives the columns their raw values: until one differs from its normalized
// value (a pass/fail or 0–1 dimension never does), they are not stored.
func (c *sampleCols) ensureRaw() {
	if c.raw != nil {
		return
	}
	c.raw = make([]float64, len(c.norm), cap(c.norm))
	for i, f := range c.flags {
		for k := i * c.nd; k < (i+1)*c.nd; k++ {
			c.raw[k] = math.NaN()
			if f&fPresent != 0 {
				c.raw[k] = c.norm[k]
			}
		}
	}
}

// rawOf points at value k's raw value (NaN: null).
func (c *sampleCols) rawOf(k int) *float64 {
	if c.raw == nil {
		return &c.norm[k]
	}
	return &c.raw[k]
}

// setStr records value k's string s (label or error) in m, or clears it.
func (c *sampleCols) setStr(m map[int]string, k int, bit uint8, s string) {
	if s == "" {
		if c.dflags[k]&bit != 0 {
			delete(m, k)
			c.dflags[k] &^= bit
		}
		return
	}
	m[k] = s
	c.dflags[k] |= bit
}

// setWhy records why item i failed ("": it did not).
func (c *sampleCols) setWhy(i int, why string) {
	if why == "" {
		c.why[i] = 0
		return
	}
	k, ok := c.whyIdx[why]
	if !ok {
		k = uint32(len(c.whys))
		c.whys = append(c.whys, why)
		c.whyIdx[why] = k
	}
	c.why[i] = k
}

// whyMap is the reasons by item, as a shard's state carries them.
func (c *sampleCols) whyMap() map[int]string {
	m := map[int]string{}
	for i, k := range c.why {
		if k != 0 {
			m[i] = c.whys[k]
		}
	}
	return m
}

// num returns a result number of item i, if recorded.
func colNum(col []float64, i int) (float64, bool) {
	if col == nil || math.IsNaN(col[i]) {
		return 0, false
	}
	return col[i], true
}
