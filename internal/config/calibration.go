package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// loadCalibration decodes `calibration:` and checks its labels: every dimension they
// name is an llm_judge dimension, and every label is a value on its scale.
func (c *Config) loadCalibration() error {
	cal := c.Calibration
	if cal == nil {
		return nil
	}
	node := func(path string) ast.Node {
		p, err := yaml.PathString(path)
		if err != nil {
			return nil
		}
		n, err := p.FilterFile(c.ast)
		if err != nil {
			return nil
		}
		return n
	}
	outputs := node("$.calibration.outputs")
	if cal.Outputs == nil || outputs == nil {
		return c.errAt("$.calibration", "calibration: no outputs; list the labelled outputs (name, item, output, labels), or name a file holding them")
	}
	if err := cal.Load(c.File, c.Dir, outputs, node("$.calibration.min_alpha")); err != nil {
		return err
	}
	var judged []string
	for _, d := range c.Scoring.Dimensions {
		if d.Scorer == "llm_judge" {
			judged = append(judged, d.Name)
		}
	}
	want := "the scoring system has no llm_judge dimension"
	if len(judged) > 0 {
		want = "want one of " + strings.Join(judged, ", ")
	}
	labelled := map[string]bool{}
	for i := range cal.Cases {
		cs := &cal.Cases[i]
		dims := make([]string, 0, len(cs.Labels))
		for dim := range cs.Labels {
			dims = append(dims, dim)
		}
		sort.Strings(dims)
		for _, dim := range dims {
			d := c.Scoring.DimensionIndex(dim)
			if d < 0 || c.Scoring.Dimensions[d].Scorer != "llm_judge" {
				return cs.Errorf(cs.LabelLine[dim], "labels name %q, which is not a judged dimension; %s", dim, want)
			}
			labelled[dim] = true
			for _, v := range cs.Values(dim) {
				if _, err := c.Scoring.ParseLabel(d, v); err != nil {
					return cs.Errorf(cs.LabelLine[dim], "labels.%s: %v", dim, err)
				}
			}
		}
	}
	for dim := range cal.Min {
		if dim != "" && !labelled[dim] {
			return c.errAt("$.calibration.min_alpha", fmt.Sprintf("calibration.min_alpha names %q, which no calibration output labels", dim))
		}
	}
	return nil
}
