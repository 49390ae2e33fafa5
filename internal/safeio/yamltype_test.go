package safeio

import (
	"testing"
	"time"
)

// A YAML value of the wrong type is named by the file, the line and its key, with
// what the field wants and what the file holds, in the config's terms; a list entry
// has no key of its own and is named by its line.
func TestYAMLTypeErrorsInPlainWords(t *testing.T) {
	type cfg struct {
		MaxDrop float64       `yaml:"max_drop"`
		Runs    int           `yaml:"runs"`
		Strict  bool          `yaml:"strict"`
		Timeout time.Duration `yaml:"timeout"`
		Results []string      `yaml:"results"`
		Weights []float64     `yaml:"weights"`
		Judge   struct {
			Model string `yaml:"model"`
		} `yaml:"judge"`
	}
	for src, want := range map[string]string{
		"max_drop: abc\n":                 `c.yaml:1: max_drop: want a number, got "abc"`,
		"\n\nmax_drop: high\n":            `c.yaml:3: max_drop: want a number, got "high"`,
		"runs: many\n":                    `c.yaml:1: runs: want a whole number, got "many"`,
		"strict: 3\n":                     `c.yaml:1: strict: want true or false, got 3`,
		"timeout: [1]\n":                  `c.yaml:1: timeout: want a duration (30s, 2m), got a list`,
		"results: abc\n":                  `c.yaml:1: results: want a list, got "abc"`,
		"judge:\n  model: {a: 1}\n":       `c.yaml:2: model: want a string, got a mapping`,
		"max_drop:\n  a: 1\n":             `c.yaml:1: max_drop: want a number, got a mapping`,
		"weights:\n  - 0.5\n  - heavy\n":  `c.yaml:3: want a number, got "heavy"`,
		"judge: {model: m}\nruns: true\n": `c.yaml:2: runs: want a whole number, got true`,
	} {
		var v cfg
		err := UnmarshalYAML("c.yaml", []byte(src), &v)
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v; want %s", src, err, want)
		}
	}
}
