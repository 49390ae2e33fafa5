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

// FromScored builds the stable distribution from a scored release (N runs).
func FromScored(sc *rubric.Scored, opts Options) *Baseline {
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
	}
	var means []float64
	for _, r := range sc.Runs {
		ra := RunAggregate{File: r.File, MeanScore: r.Metrics[rubric.MetricMeanScore], PassRate: r.Metrics[rubric.MetricPassRate]}
		if v, ok := r.Metrics["latency_e2e_p50_ms"]; ok {
			ra.P50Ms = &v
		}
		if v, ok := r.Metrics["latency_e2e_p95_ms"]; ok {
			ra.P95Ms = &v
		}
		b.Runs = append(b.Runs, ra)
		means = append(means, ra.MeanScore)
		var recs []map[string]any
		for i := range r.Samples {
			if res := r.Samples[i].Result; res != nil && res.Record != nil {
				recs = append(recs, res.Record)
			}
		}
		b.Outputs = append(b.Outputs, recs)
	}
	b.Mean = rubric.Round9(stats.Mean(means))
	b.Std = rubric.Round9(stats.SampleStd(means))
	b.PassRate = sc.Metrics[rubric.MetricPassRate]
	for _, d := range sc.System.Dimensions {
		if v, ok := sc.Metrics[d.Name+"_score"]; ok {
			b.Dimensions[d.Name] = v
		}
	}
	for i := range sc.Items {
		b.Items = append(b.Items, itemOf(sc, i))
	}
	return b
}

// itemOf is the baseline of item i of a scored run: its means, spread and pass bits.
func itemOf(sc *rubric.Scored, i int) Item {
	is := sc.Items[i]
	it := Item{ID: is.Item.ID, Hash: is.Item.Hash, Tags: is.Item.Tags, Score: is.Score, Runs: max(is.Runs, 1),
		PassRate: rubric.Round9(float64(is.PassRuns) / float64(max(is.Runs, 1))), Breakdown: map[string]float64{}}
	bits := make([]byte, 0, len(sc.Runs))
	var scores []float64
	dims := make([][]float64, len(sc.System.Dimensions))
	for r := range sc.Runs {
		sm := &sc.Runs[r].Samples[i]
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
	it.PassBits = string(bits)
	it.Runs = len(bits)
	it.ScoreStd = rubric.Round9(stats.SampleStd(scores))
	for d, dim := range sc.System.Dimensions {
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
