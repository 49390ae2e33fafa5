package config_test

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
)

// Every judge an example config names, unless it only replays a cache, is a model the
// config's price table knows (the built-in table or the config's pricing: block): an
// example that names a retired model, or one nobody prices, would show "cost unknown"
// the first time a reader points it at a real model.
func TestExampleJudgesArePriced(t *testing.T) {
	files, err := filepath.Glob("../../examples/*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range files {
		if b := filepath.Base(f); b != "evalgate.yaml" && b != "panel.yaml" {
			continue // suites, rubric tests, promptfoo's own config
		}
		c, err := config.Load(f, nil)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, name := range slices.Sorted(maps.Keys(c.Judges)) {
			jc := c.Judges[name]
			if jc.Replay {
				continue // answered from its cache alone; never billed
			}
			seen++
			if _, _, ok := c.Prices.Lookup(jc.Model); !ok {
				t.Errorf("%s: judge %q: model %q has no price (a retired id, or one to price under pricing:)", f, name, jc.Model)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no example names a judge model; the glob or the configs moved")
	}
}
