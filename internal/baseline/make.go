package baseline

import (
	"time"

	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/stats"
)

var zeroTime time.Time

// Options describe where a baseline comes from.
type Options struct {
	Source        Source
	GradingSystem string
	Grade         string
	Now           time.Time
}

// FromScored builds the stable distribution from a scored release (N runs), with its
// items and, when the scoring kept the samples, their recorded outputs. For a large
// suite, HeaderOf and SaveScored write it item by item instead.
func FromScored(sc *rubric.Scored, opts Options) *Baseline {
	b := HeaderOf(sc, opts)
	for _, r := range sc.Runs {
		var recs []map[string]any
		for i := range r.Samples {
			if res := r.Samples[i].Result; res != nil && res.Record != nil {
				recs = append(recs, res.Record)
			}
		}
		b.Outputs = append(b.Outputs, recs)
	}
	var s itemScratch
	for i := range sc.NumItems() {
		b.Items = append(b.Items, itemOf(sc, i, &s))
	}
	return b
}

// HeaderOf is the baseline of a scored release without its items and outputs: its
// versions, hashes, per-run aggregates, mean and std.
func HeaderOf(sc *rubric.Scored, opts Options) *Baseline {
	b := &Baseline{
		SchemaVersion: SchemaVersion,
		Suite:         sc.Suite.Name,
		ScoringSystem: sc.System.Version,
		GradingSystem: opts.GradingSystem,
		SuiteHash:     sc.Suite.Hash,
		RubricHash:    sc.System.Hash(),
		Source:        opts.Source,
		CreatedAt:     opts.Now.UTC().Format(time.RFC3339),
		Grade:         opts.Grade,
		Metrics:       map[string]float64(sc.Metrics),
		Dimensions:    map[string]float64{},
		Judges:        sc.System.Fingerprints(),

		JudgeCostPricesHits: true,
	}
	var means []float64
	for _, r := range sc.Runs {
		ra := RunAggregate{File: r.File, MeanScore: r.Metrics[rubric.MetricMeanScore], PassRate: r.Metrics[rubric.MetricPassRate]}
		if v, ok := r.Metrics[rubric.MetricLatencyE2EP50]; ok {
			ra.P50Ms = &v
		}
		if v, ok := r.Metrics[rubric.MetricLatencyE2EP95]; ok {
			ra.P95Ms = &v
		}
		if v, ok := r.Metrics[rubric.MetricCostUSD]; ok {
			ra.CostUSD = &v
		}
		b.Runs = append(b.Runs, ra)
		means = append(means, ra.MeanScore)
	}
	b.Mean = rubric.Round9(stats.Mean(means))
	b.Std = rubric.Round9(stats.SampleStd(means))
	b.PassRate = sc.Metrics[rubric.MetricPassRate]
	for _, d := range sc.System.Dimensions {
		if v, ok := sc.Metrics[rubric.DimensionMetric(d.Name, rubric.SuffixScore)]; ok {
			b.Dimensions[d.Name] = v
		}
	}
	return b
}

// itemScratch is space itemOf reuses from item to item.
type itemScratch struct {
	samples []rubric.Sample
	sm      rubric.Sample
	scores  []float64
	dims    [][]float64
	bits    []byte
}

// itemOf is the baseline of item i of a scored run: its means, spread and pass bits.
func itemOf(sc *rubric.Scored, i int, s *itemScratch) Item {
	is := sc.ItemAt(i, &s.samples)
	it := Item{ID: is.Item.ID, Hash: sc.Suite.HashOf(i), Tags: is.Item.Tags, Score: is.Score, Runs: max(is.Runs, 1),
		PassRate: rubric.Round9(float64(is.PassRuns) / float64(max(is.Runs, 1))), Breakdown: map[string]float64{}}
	nd := len(sc.System.Dimensions)
	bits, scores := s.bits[:0], s.scores[:0]
	for len(s.dims) < nd {
		s.dims = append(s.dims, nil)
	}
	dims := s.dims[:nd]
	for d := range dims {
		dims[d] = dims[d][:0]
	}
	for r := range sc.Runs {
		sm := &s.sm
		sc.SampleAt(r, i, sm)
		bits = append(bits, "01"[b2i(sm.Pass)])
		if sm.Pending {
			continue
		}
		scores = append(scores, sm.Score)
		for d, v := range sm.Values {
			if !v.Excluded {
				dims[d] = append(dims[d], v.Norm)
			}
		}
	}
	s.bits, s.scores = bits, scores
	it.PassBits = string(bits)
	it.Runs = len(bits)
	it.ScoreStd = rubric.Round9(stats.SampleStd(scores))
	for d, dim := range sc.System.Dimensions {
		if is.NA[d] {
			continue // n/a in every run: no value, not 0
		}
		it.Breakdown[dim.Name] = is.Breakdown[d]
		if sd := rubric.Round9(stats.SampleStd(dims[d])); sd > 0 {
			if it.BreakdownStd == nil {
				it.BreakdownStd = map[string]float64{}
			}
			it.BreakdownStd[dim.Name] = sd
		}
	}
	return it
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
