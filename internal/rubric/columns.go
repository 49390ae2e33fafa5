package rubric

import "math"

// sampleCols holds one run's scored samples compactly, indexed by suite item (and by
// item × dimension): the few numbers the summary, the comparison and the report need,
// never the output. A million items with four dimensions take about 80 MB per run.
type sampleCols struct {
	partial bool // a re-run of some items: absent items are not part of the run
	nd      int
	score   []float64
	flags   []uint8
	norm    []float64 // [item*nd+d]
	raw     []float64 // [item*nd+d]; NaN is null
	dflags  []uint8   // [item*nd+d]: dimExcluded
	// Rare strings, by index, interned.
	label, errs, note map[int]string // [item*nd+d]
	cappedBy, why     map[int]string // [item]
	// Result fields the metrics read; nil until a record has one. NaN: not recorded.
	e2e, model, inTok, outTok []float64
	// The first model name recorded, in suite order.
	modelIdx  int
	modelName string
}

const (
	fPresent  uint8 = 1 << iota // the run has a result for the item
	fPass                       // the sample passes
	fPending                    // every dimension n/a or stale
	fTimedOut                   // the result timed out
	fError                      // the result carries an error
)

const dimExcluded uint8 = 1

func newCols(nd, n int) *sampleCols {
	c := &sampleCols{nd: nd, modelIdx: -1, label: map[int]string{}, errs: map[int]string{}, note: map[int]string{},
		cappedBy: map[int]string{}, why: map[int]string{}}
	c.grow(n)
	return c
}

// grow makes room for n items; new items are missing.
func (c *sampleCols) grow(n int) {
	for len(c.score) < n {
		c.score = append(c.score, 0)
		c.flags = append(c.flags, 0)
		for range c.nd {
			c.norm = append(c.norm, 0)
			c.raw = append(c.raw, math.NaN())
			c.dflags = append(c.dflags, 0)
		}
		for _, col := range []*[]float64{&c.e2e, &c.model, &c.inTok, &c.outTok} {
			if *col != nil {
				*col = append(*col, math.NaN())
			}
		}
	}
}

func (c *sampleCols) len() int { return len(c.score) }

// interner shares equal strings (reasons, labels, notes) among samples.
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
	if sm.Why != "" {
		c.why[i] = in.of(sm.Why)
	}
	for d, v := range sm.Values {
		k := i*c.nd + d
		c.norm[k] = v.Norm
		if v.Raw != nil {
			c.raw[k] = *v.Raw
		}
		if v.Excluded {
			c.dflags[k] = dimExcluded
		}
		if v.Label != "" {
			c.label[k] = in.of(v.Label)
		}
		if v.Error != "" {
			c.errs[k] = in.of(v.Error)
		}
		if v.Note != "" {
			c.note[k] = in.of(v.Note)
		}
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

// sample rebuilds item i's sample (without its result) into sm, reusing sm's slices.
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
		v := Value{Norm: c.norm[k], Excluded: c.dflags[k]&dimExcluded != 0, Label: c.label[k], Error: c.errs[k], Note: c.note[k]}
		if r := c.raw[k]; !math.IsNaN(r) {
			v.Raw = &c.raw[k]
		}
		sm.Values[d] = v
	}
	s.weigh(sm)
	sm.Score = c.score[i]
	sm.CappedBy = c.cappedBy[i]
	sm.Why = c.why[i]
	sm.Pass = f&fPass != 0
	sm.Pending = f&fPending != 0
}

// num returns a result number of item i, if recorded.
func colNum(col []float64, i int) (float64, bool) {
	if col == nil || math.IsNaN(col[i]) {
		return 0, false
	}
	return col[i], true
}
