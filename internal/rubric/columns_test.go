package rubric

import (
	"math"
	"testing"
)

// TestRawColumnAppearsWhenNeeded: raw values equal to their normalized ones are not
// stored; the first that differs (or is null) brings the column in with the earlier
// items' values, and every sample reads back what was put.
func TestRawColumnAppearsWhenNeeded(t *testing.T) {
	sys := &System{Dimensions: []Dimension{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}}}
	f := func(x float64) *float64 { return &x }
	puts := [][]Value{
		{{Raw: f(1), Norm: 1}, {Raw: f(0), Norm: 0}},
		{{Raw: f(0), Norm: 0}, {Raw: f(1), Norm: 1}},
		nil, // item 2 has no result
		{{Raw: f(7), Norm: 0.7}, {Raw: nil, Norm: 0}},
		{{Raw: f(1), Norm: 1}, {Raw: f(1), Norm: 1}},
	}
	c := newCols(2, 0)
	in := interner{}
	for i, vals := range puts {
		c.grow(i + 1)
		if vals != nil {
			c.put(i, &Sample{Values: vals}, in)
		}
		if i < 3 && c.raw != nil {
			t.Fatalf("item %d: raw column stored while every raw value equals its norm", i)
		}
	}
	if c.raw == nil {
		t.Fatal("no raw column after a raw value of 7 normalized to 0.7")
	}
	var sm Sample
	for i, vals := range puts {
		c.sample(sys, i, &sm)
		if vals == nil {
			if !sm.Missing {
				t.Errorf("item %d: want missing", i)
			}
			continue
		}
		for d, v := range vals {
			got := sm.Values[d].Raw
			if (got == nil) != (v.Raw == nil) || got != nil && *got != *v.Raw || sm.Values[d].Norm != v.Norm {
				t.Errorf("item %d dim %d: raw %v norm %v; want %v %v", i, d, got, sm.Values[d].Norm, v.Raw, v.Norm)
			}
		}
	}
	for k, want := range []float64{1, 0, 0, 1, math.NaN(), math.NaN(), 7, math.NaN(), 1, 1} {
		if got := c.raw[k]; got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("raw[%d] = %v; want %v", k, got, want)
		}
	}
}
