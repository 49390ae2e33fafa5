// Package judgecheck measures how far the judges agree with themselves: it re-judges a
// sample of outputs several times with the cache bypassed and computes, per judged
// dimension, Krippendorff's α over the repeats, the exact agreement and the verdict
// variance (and, for a reviewer panel, the inter-reviewer α). `evalgate baseline`
// stores the result in the baseline; `evalgate judge-check` prints it on demand.
package judgecheck

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/stats"
)

// Options say what to measure and how to build a scoring system whose judges bypass
// their cache.
type Options struct {
	// Fresh builds the scoring system again with every judge's cache bypassed (no_cache):
	// each repeat is judged by a system built afresh, so no verdict is reused. It is
	// told which repeat it builds for, the repeat-th (from 1) of repeats, so its judges'
	// progress can say so.
	Fresh func(repeat, repeats int) (*rubric.System, error)
	// Items and Results are the outputs to sample from, pairwise (one run's).
	Items   []*eval.Item
	Results []*eval.Result
	// Sample is how many outputs to re-judge (all when fewer); Repeats the judgments
	// of each. Zero means the defaults.
	Sample, Repeats int
}

// ErrNoJudge is returned when the scoring system has no llm_judge dimension.
var ErrNoJudge = errors.New("judge check: the scoring system has no llm_judge dimension")

// Measure re-judges a sample of the outputs Repeats times and measures each judged
// dimension's reliability. The sample is drawn with PCG seeded 42, so reruns re-judge
// the same outputs.
func Measure(ctx context.Context, o Options) (*reliability.Measurement, error) {
	if o.Sample == 0 {
		o.Sample = reliability.DefaultSample
	}
	if o.Repeats == 0 {
		o.Repeats = reliability.DefaultRepeats
	}
	if o.Sample < 2 || o.Repeats < 2 {
		return nil, fmt.Errorf("judge check: sample %d and repeats %d; want at least 2 of each", o.Sample, o.Repeats)
	}
	if len(o.Items) != len(o.Results) {
		return nil, fmt.Errorf("judge check: %d items for %d results", len(o.Items), len(o.Results))
	}
	idx := Sample(len(o.Items), o.Sample)
	items := make([]*eval.Item, len(idx))
	results := make([]*eval.Result, len(idx))
	for i, k := range idx {
		items[i], results[i] = o.Items[k], o.Results[k]
	}
	var sys *rubric.System
	var repeats [][]rubric.Judged // [repeat][judged dimension]
	for r := 0; r < o.Repeats; r++ {
		s, err := o.Fresh(r+1, o.Repeats)
		if err != nil {
			return nil, err
		}
		if len(s.JudgedDimensions()) == 0 {
			return nil, ErrNoJudge
		}
		js, err := s.JudgeOnce(ctx, items, results)
		if err != nil {
			return nil, fmt.Errorf("judge check, repeat %d of %d: %w", r+1, o.Repeats, err)
		}
		sys = s
		repeats = append(repeats, js)
	}
	m := &reliability.Measurement{Sample: len(idx), Repeats: o.Repeats}
	for j, first := range repeats[0] {
		d := sys.Dimensions[first.Dimension]
		units := make([][]float64, len(idx))
		for u := range units {
			for r := range repeats {
				units[u] = append(units[u], repeats[r][j].Values[u])
			}
		}
		dim, err := reliability.MeasureDimension(d.Name, JudgeName(first), d.Weight, LevelOf(d), units)
		if err != nil {
			return nil, err
		}
		if first.Reviewers != nil {
			// Inter-reviewer: one unit per output, the reviewers' values on the first
			// repeat.
			iu := make([][]float64, len(idx))
			for u := range iu {
				for r := range first.Reviewer {
					iu[u] = append(iu[u], first.Reviewer[r][u])
				}
			}
			if err := dim.InterReviewerAlpha(iu); err != nil {
				return nil, err
			}
		}
		m.Dimensions = append(m.Dimensions, dim)
	}
	return m, nil
}

// LevelOf is the level of measurement of a dimension's values: nominal for binary and
// pass/fail scales, interval for numeric scales and panel aggregates (the score
// averages them as numbers).
func LevelOf(d rubric.Dimension) stats.Level {
	if d.Panel == nil && (d.Scale == "binary" || d.Scale == "pass_fail") {
		return stats.LevelNominal
	}
	return stats.LevelInterval
}

// JudgeName names the judge of a judged dimension: its judge, or a panel's reviewers
// joined by ", ".
func JudgeName(j rubric.Judged) string {
	if j.Reviewers != nil {
		return strings.Join(j.Reviewers, ", ")
	}
	return j.Judge
}

// Sample returns k indices of 0..n−1 (all of them when n ≤ k), in increasing order,
// drawn without replacement with PCG seeded 42.
func Sample(n, k int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if n <= k {
		return idx
	}
	rng := rand.New(rand.NewPCG(42, 42))
	for i := 0; i < k; i++ { // partial Fisher–Yates
		j := i + rng.IntN(n-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	out := slices.Clone(idx[:k])
	slices.Sort(out)
	return out
}
