package safeio

import (
	"testing"
)

// A whole-number field takes what YAML writes as a whole number (12, 0x10 = 16,
// 1_000 = 1000, 3.0 = 3) and refuses, at its own line and key, a fraction that
// goccy/go-yaml alone would cut (2.5 became 2), a string, a list and a number beyond
// the field's range.
func TestWholeNumberFields(t *testing.T) {
	type cfg struct {
		Runs  int   `yaml:"runs"`
		Words *int  `yaml:"max_words"`
		Sizes []int `yaml:"sizes"`
		Big   int64 `yaml:"big"`
	}
	ok := []struct {
		in   string
		runs int
	}{{"runs: 12", 12}, {"runs: 0x10", 16}, {"runs: 1_000", 1000}, {"runs: 3.0", 3}, {"runs: -4", -4}}
	for _, tc := range ok {
		var c cfg
		if err := UnmarshalYAML("c.yaml", []byte(tc.in), &c); err != nil || c.Runs != tc.runs {
			t.Errorf("%q: runs %d, %v; want %d", tc.in, c.Runs, err, tc.runs)
		}
	}
	bad := []struct{ in, want string }{
		{"runs: 2\nmax_words: 3.5\n", "c.yaml:2: max_words: want a whole number, got 3.5"},
		{"runs: 2.5", "c.yaml:1: runs: want a whole number, got 2.5"},
		{"runs: 1\nsizes: [1, 2.5]\n", "c.yaml:2: want a whole number, got 2.5"},
		{"runs: abc", `c.yaml:1: runs: want a whole number, got "abc"`},
		// goccy/go-yaml reads a float beyond float64 as a string.
		{"runs: 1e400", `c.yaml:1: runs: want a whole number, got "1e400"`},
		{"big: 9223372036854775808", "c.yaml:1: big: want a whole number, got 9223372036854775808"},
		{"runs: true", "c.yaml:1: runs: want a whole number, got true"},
	}
	for _, tc := range bad {
		var c cfg
		err := UnmarshalYAML("c.yaml", []byte(tc.in), &c)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v; want %q", tc.in, err, tc.want)
		}
	}
}
