package rubric

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/stats"
)

// Estimate says that a metric is estimated from a sketch rather than computed exactly:
// a latency percentile of a run with more than stats.ExactQuantilesUpTo latencies.
type Estimate struct {
	// Method is the sketch: "DDSketch".
	Method string `json:"method"`
	// RelativeError bounds the error: the estimate is within RelativeError·x of x, the
	// exact percentile (for latencies, which are ≥ 0).
	RelativeError float64 `json:"relative_error"`
	// Values is how many latencies the sketch summarizes (the most of any run).
	Values int `json:"values"`
	// ExactUpTo is the number of latencies up to which percentiles are exact.
	ExactUpTo int `json:"exact_up_to"`
}

// String is the estimate for people: "estimated (DDSketch of 2,000,000 values, ±1 %)".
func (e Estimate) String() string {
	return fmt.Sprintf("estimated (%s of %s values, ±%s %%)", e.Method, Thousands(e.Values), FormatMetric(100*e.RelativeError, UnitScore))
}

// Thousands prints n with a comma every three digits: 2,000,000.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// latencyPercentiles are the run metrics p50 and p95 of each latency, and the
// estimates among them.
func latencyPercentiles(m Metrics, lats []namedQuantiles) map[string]Estimate {
	var est map[string]Estimate
	for _, l := range lats {
		for _, p := range []struct {
			name string
			p    float64
		}{{l.p50, 50}, {l.p95, 95}} {
			v, ok := l.q.Percentile(p.p)
			if !ok {
				continue
			}
			name := p.name
			m[name] = Round9(v)
			if l.q.Sketched() {
				if est == nil {
					est = map[string]Estimate{}
				}
				est[name] = Estimate{Method: stats.SketchMethod, RelativeError: stats.SketchRelativeAccuracy, Values: l.q.Len(), ExactUpTo: stats.ExactQuantilesUpTo}
			}
		}
	}
	return est
}

// namedQuantiles is one latency's values in a run and the names of its p50 and p95
// metrics.
type namedQuantiles struct {
	q        *stats.Quantiles
	p50, p95 string
}

// Estimates are the metrics of Metrics estimated in some run (over the runs Metrics
// averages), with the largest run's count: nil when every figure is exact.
func (sc *Scored) Estimates() map[string]Estimate {
	var out map[string]Estimate
	for _, r := range sc.Runs {
		if r.Partial {
			continue
		}
		for k, e := range r.Estimates {
			if out == nil {
				out = map[string]Estimate{}
			}
			if prev, ok := out[k]; ok && prev.Values > e.Values {
				e.Values = prev.Values
			}
			out[k] = e
		}
	}
	return out
}

// latencies gathers the run's e2e and model latencies: those of the items with a
// result, in suite order, over the sketches merged from shards that carried one.
func (c *sampleCols) latencies() [2]*stats.Quantiles {
	out := [2]*stats.Quantiles{{}, {}}
	for k, col := range [2][]float64{c.e2e, c.model} {
		if s := c.latSketch[k]; s != nil {
			out[k].Merge(s)
		}
		if col == nil {
			continue
		}
		for i, f := range c.flags {
			if v := col[i]; f&fPresent != 0 && !math.IsNaN(v) {
				out[k].Add(v)
			}
		}
	}
	return out
}

// mergeSketches adds a shard's latency sketches (RunState.Sketches) to the run's.
func (c *sampleCols) mergeSketches(sketches map[string]*stats.SketchState) error {
	for name, st := range sketches {
		k := slices.Index(numberCols[:2], name)
		if k < 0 || st == nil {
			return fmt.Errorf("sketch of %q; only latency_e2e_ms and latency_model_ms are sketched", name)
		}
		if c.latSketch[k] == nil {
			c.latSketch[k] = &stats.Quantiles{}
		}
		if err := c.latSketch[k].MergeState(st); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
