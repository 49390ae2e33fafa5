package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// An unknown key is answered with the nearest key accepted at that place: the struct
// is found along the key's YAML path (through lists and maps), so "modle" under a judge
// suggests the judge's "model", not a key of another section.
func TestUnknownFieldDidYouMean(t *testing.T) {
	t.Parallel()
	const valid = "scoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - {name: a, weight: 1, scorer: regex, pattern: x}\ngrading:\n  version: gradingSystem/1.0.0\n"
	tests := []struct{ yaml, want string }{
		{valid + "judges:\n  j1: {modle: gpt-x}\n", `unknown field "modle"; did you mean "model"?`},
		{valid + "  regresion: {max_drop: 0.02}\n", `unknown field "regresion"; did you mean "regression"?`},
		{strings.Replace(valid, "pattern: x", "patern: x", 1), `unknown field "patern"; did you mean "pattern"?`},
		{valid + "baseine: b.json\n", `unknown field "baseine"; did you mean "baseline"?`},
		{valid + "zzzzzzzz: 1\n", `unknown field "zzzzzzzz"`}, // nothing near: no guess
	}
	for _, tt := range tests {
		_, err := Parse(filepath.Join(t.TempDir(), "evalgate.yaml"), []byte(tt.yaml), nil)
		if err == nil || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("err = %v; want it to end with %q", err, tt.want)
		}
	}
}
