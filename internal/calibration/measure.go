package calibration

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judgecheck"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/rubrictests"
	"github.com/evalgate/evalgate/internal/stats"
)

// Measure judges every labelled output once with the scoring system's judges (through
// their cache, so an unchanged set costs nothing the second time) and measures each
// labelled judged dimension's agreement with the people.
func Measure(ctx context.Context, sys *rubric.System, suite *eval.Suite, cfg *Config) (*reliability.Calibration, error) {
	items := make([]*eval.Item, len(cfg.Cases))
	results := make([]*eval.Result, len(cfg.Cases))
	for i := range cfg.Cases {
		var err error
		if items[i], results[i], err = cfg.Cases[i].sample(suite); err != nil {
			return nil, err
		}
	}
	js, err := sys.JudgeOnce(ctx, items, results)
	if err != nil {
		return nil, err
	}
	return agreement(sys, cfg, js)
}

// agreement compares the judges' verdicts js on the cases with the people's labels.
func agreement(sys *rubric.System, cfg *Config, js []rubric.Judged) (*reliability.Calibration, error) {
	out := &reliability.Calibration{Outputs: len(cfg.Cases)}
	for _, j := range js {
		d := sys.Dimensions[j.Dimension]
		dim := reliability.CalibrationDimension{Name: d.Name, Judge: judgecheck.JudgeName(j), Level: judgecheck.LevelOf(d)}
		cats := sys.Categories(j.Dimension)
		conf := newConfusion(cats)
		var units, people [][]float64
		var pairs, same int
		var diff float64
		labelled, numeric := false, true
		for i := range cfg.Cases {
			c := &cfg.Cases[i]
			raw := c.Values(d.Name)
			if len(raw) == 0 {
				continue
			}
			labelled = true
			var hs []float64
			var hv []rubric.Value
			for _, x := range raw {
				v, err := sys.ParseLabel(j.Dimension, x)
				if err != nil {
					return nil, c.Errorf(c.LabelLine[d.Name], "labels.%s: %v", d.Name, err)
				}
				if v.Excluded {
					continue // n/a: the person gave no label
				}
				hs = append(hs, v.Norm)
				hv = append(hv, v)
			}
			if len(hs) >= 2 {
				people = append(people, hs)
			}
			jv := j.Verdicts[i]
			if len(hs) == 0 || math.IsNaN(j.Values[i]) {
				continue // nothing to compare: no label, or no verdict (a parse error)
			}
			units = append(units, append([]float64{j.Values[i]}, hs...))
			dim.Labels += len(hs)
			for k, h := range hv {
				pairs++
				if math.Abs(hs[k]-j.Values[i]) < 1e-9 {
					same++
				}
				if h.Label != "" || jv.Raw == nil || h.Raw == nil {
					numeric = false
				} else {
					diff += *jv.Raw - *h.Raw
				}
				conf.add(rubric.ValueText(h), rubric.ValueText(jv))
			}
		}
		if !labelled {
			continue
		}
		dim.Units = len(units)
		a, err := stats.KrippendorffAlpha(units, dim.Level)
		if err != nil {
			return nil, fmt.Errorf("calibration: dimension %q: %w", d.Name, err)
		}
		dim.Alpha = finite(a.Alpha)
		if len(people) > 0 {
			h, err := stats.KrippendorffAlpha(people, dim.Level)
			if err != nil {
				return nil, fmt.Errorf("calibration: dimension %q: %w", d.Name, err)
			}
			dim.HumanAlpha = finite(h.Alpha)
		}
		if pairs > 0 {
			dim.Exact = finite(float64(same) / float64(pairs))
			if numeric {
				dim.Bias = finite(diff / float64(pairs))
			}
		}
		if m, ok := cfg.MinFor(d.Name); ok {
			dim.MinAlpha = &m
		}
		dim.Confusion = conf.table()
		out.Dimensions = append(out.Dimensions, dim)
	}
	return out, nil
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// confusion counts (person, judge) pairs over a short scale's categories; a value off
// the categories (a panel's mean of 1.5) drops the table.
type confusion struct {
	cats   []string
	counts [][]int
	off    bool
}

func newConfusion(cats []string) *confusion {
	c := &confusion{cats: cats, off: len(cats) == 0}
	c.counts = make([][]int, len(cats))
	for i := range c.counts {
		c.counts[i] = make([]int, len(cats))
	}
	return c
}

func (c *confusion) add(person, judge string) {
	h, j := slices.Index(c.cats, person), slices.Index(c.cats, judge)
	if h < 0 || j < 0 {
		c.off = true
		return
	}
	c.counts[h][j]++
}

func (c *confusion) table() *reliability.Confusion {
	if c.off {
		return nil
	}
	return &reliability.Confusion{Values: c.cats, Counts: c.counts}
}

// sample is the case's item and its output as a result record, built as a rubric
// test's are.
func (c *Case) sample(suite *eval.Suite) (*eval.Item, *eval.Result, error) {
	if id, ok := c.Item.(string); ok {
		if suite == nil {
			return nil, nil, c.Errorf(0, "item %q names a suite item, and there is no suite; give the item's fields inline", id)
		}
		if _, ok := suite.Item(id); !ok {
			return nil, nil, c.Errorf(0, "item %q is not in %s", id, suite.File)
		}
	}
	fx := rubrictests.Case{Name: c.Name, Item: c.Item, Output: c.Output, Result: c.Result, File: c.File, Line: c.Line}
	return fx.Sample(suite)
}
