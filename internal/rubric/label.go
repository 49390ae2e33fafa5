package rubric

import (
	"fmt"
	"strconv"
)

// ParseLabel reads a value a person gave dimension d (a calibration label) on the
// dimension's scale: a number in range (a whole one on an integer scale), or pass, fail,
// n/a on pass_fail. n/a is Excluded: no label.
func (s *System) ParseLabel(d int, v any) (Value, error) {
	dim := &s.Dimensions[d]
	sc, ok := scales[dim.Scale]
	if !ok {
		return Value{}, fmt.Errorf("dimension %q has no scale", dim.Name)
	}
	val, err := parseRaw(v, sc, dim.Normalize == "max", dim.Name)
	if err != nil {
		want := fmt.Sprintf("a number from %v to %v", sc.Min, sc.Max)
		switch {
		case sc.Labels:
			want = "pass or fail"
		case sc.Integer:
			want = fmt.Sprintf("a whole number from %v to %v", sc.Min, sc.Max)
		}
		return Value{}, fmt.Errorf("%v is not on the %s scale; want %s, or n/a for no label", v, sc.Name, want)
	}
	return val, nil
}

// ValueText is a value as it reads on its scale: "2", "7.5", "pass"; "" when null.
func ValueText(v Value) string {
	switch {
	case v.Label != "":
		return v.Label
	case v.Raw == nil:
		return ""
	}
	return strconv.FormatFloat(*v.Raw, 'f', -1, 64)
}

// MaxCategories is the longest scale whose values are told apart as categories (a
// confusion table); longer scales are read as numbers only.
const MaxCategories = 5

// Categories lists the values of dimension d's scale, in order, when it is short
// (pass_fail, binary, 0–2, 1–5: fail pass, 0 1 2, 1 2 3 4 5); nil on a long or
// continuous scale.
func (s *System) Categories(d int) []string {
	sc, ok := scales[s.Dimensions[d].Scale]
	switch {
	case !ok:
		return nil
	case sc.Labels:
		return []string{"fail", "pass"}
	case sc.Name == "unit" || sc.Max-sc.Min+1 > MaxCategories:
		return nil
	}
	var out []string
	for v := sc.Min; v <= sc.Max; v++ {
		out = append(out, strconv.FormatFloat(v, 'f', -1, 64))
	}
	return out
}
