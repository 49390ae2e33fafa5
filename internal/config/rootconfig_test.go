package config_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/config"
)

// The repository's own evalgate.yaml (what `go run ./cmd/evalgate check` and the
// self-check workflow read) is the tutor example's config, examples/tutor-capstone/
// evalgate.yaml, written from the repository root: the same suite, results, baseline,
// rubric tests, scoring and grading, every path naming the same file. It leaves out the
// example's `pricing:` and `run:` blocks (the self-check shows no cost and runs nothing).
// A change to one copy that the other lacks fails here.
func TestRootConfigIsTheTutorExample(t *testing.T) {
	root, err := config.Load("../../evalgate.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	example, err := config.Load("../../examples/tutor-capstone/evalgate.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if root.Pricing != nil || root.Run != nil {
		t.Errorf("the root config has pricing (%v) or run (%v); they are the example's alone", root.Pricing != nil, root.Run != nil)
	}
	if example.Pricing == nil || example.Run == nil {
		t.Errorf("the example has no pricing or run block; the root config's comment and this test say it does")
	}
	if diff := cmp.Diff(comparable(t, example), comparable(t, root)); diff != "" {
		t.Errorf("evalgate.yaml and examples/tutor-capstone/evalgate.yaml differ (-example +root):\n%s", diff)
	}
}

// comparable is what a config says, its paths made absolute, without the blocks the
// root config leaves out.
func comparable(t *testing.T, c *config.Config) map[string]any {
	t.Helper()
	abs := func(p string) string {
		a, err := filepath.Abs(filepath.Join(c.Dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	c.Suite, c.Baseline = abs(c.Suite), abs(c.Baseline)
	for i := range c.Results {
		c.Results[i] = abs(c.Results[i])
	}
	for i := range c.Scoring.Dimensions {
		if d := &c.Scoring.Dimensions[i]; d.Schema != "" {
			d.Schema = abs(d.Schema)
		}
	}
	c.RubricTests = nil // a file name; the cases it holds are compared
	c.Pricing, c.Run = nil, nil
	data, err := json.Marshal(struct {
		*config.Config
		Cases any
	}{c, c.RubricCases})
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
