package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// A dimension name reaches metric names and markdown tables: a pipe or a space is
// refused at its line.
func TestDimensionNameIsAnIdentifier(t *testing.T) {
	for _, name := range []string{"a|b", "two words", "_x", "9lives", "`tick`"} {
		y := "scoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - name: \"" + name + "\"\n      weight: 1\n      scorer: regex\n      pattern: x\ngrading: {version: gradingSystem/1.0.0}\n"
		_, err := Parse(filepath.Join(t.TempDir(), "evalgate.yaml"), []byte(y), nil)
		if err == nil || !strings.Contains(err.Error(), "evalgate.yaml:4:") || !strings.Contains(err.Error(), "dimension name") {
			t.Errorf("name %q: err = %v; want a dimension-name error at line 4", name, err)
		}
	}
	y := "scoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - {name: spanish_gloss.v2-b, weight: 1, scorer: regex, pattern: x}\ngrading: {version: gradingSystem/1.0.0}\n"
	if _, err := Parse(filepath.Join(t.TempDir(), "evalgate.yaml"), []byte(y), nil); err != nil {
		t.Errorf("a valid name is refused: %v", err)
	}
}
