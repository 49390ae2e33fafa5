package rubric

import (
	"fmt"
	"sort"
	"strings"
)

// Scale is the range of a dimension's raw value.
type Scale struct {
	Name     string
	Min, Max float64
	Labels   bool // pass/fail/n/a/stale
	Integer  bool // raw values must be whole numbers
}

var scales = map[string]Scale{
	"binary":    {Name: "binary", Min: 0, Max: 1, Integer: true},
	"0-2":       {Name: "0-2", Min: 0, Max: 2, Integer: true},
	"1-5":       {Name: "1-5", Min: 1, Max: 5},
	"1-10":      {Name: "1-10", Min: 1, Max: 10},
	"unit":      {Name: "unit", Min: 0, Max: 1},
	"pass_fail": {Name: "pass_fail", Min: 0, Max: 1, Labels: true},
}

// ScaleNames lists the accepted scale names, for messages.
func ScaleNames() string {
	var names []string
	for n := range scales {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// normalize maps a raw value into [0, 1].
func (s Scale) normalize(raw float64, byMax bool) float64 {
	if byMax {
		return raw / s.Max
	}
	return (raw - s.Min) / (s.Max - s.Min)
}

// check refuses a raw value outside the scale.
func (s Scale) check(raw float64) error {
	if raw < s.Min || raw > s.Max {
		return fmt.Errorf("value %v is outside the %s scale [%v, %v]", raw, s.Name, s.Min, s.Max)
	}
	if s.Integer && raw != float64(int64(raw)) {
		return fmt.Errorf("value %v is not a whole number on the %s scale", raw, s.Name)
	}
	return nil
}

// Native maps a normalized value onto seed 004's 1.0–5.0 scale: pass = 5, fail = 1,
// a 1–5 score as itself.
func Native(norm float64) float64 { return 1 + 4*norm }
