package ghaction

import (
	"os"
	"sort"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"
)

// TestActionYAML keeps action.yml and the code in step: the same inputs with the same
// defaults, and the outputs Run writes.
func TestActionYAML(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
			Default     string `yaml:"default"`
		} `yaml:"inputs"`
		Outputs map[string]struct {
			Description string `yaml:"description"`
		} `yaml:"outputs"`
		Runs struct {
			Using string `yaml:"using"`
			Image string `yaml:"image"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	defaults := map[string]string{}
	for name, in := range meta.Inputs {
		if in.Description == "" {
			t.Errorf("input %q has no description", name)
		}
		defaults[name] = in.Default
	}
	// action.yml defaults the token to the workflow's; outside Actions there is none.
	defaults["github-token"] = ""
	if diff := cmp.Diff(inputDefaults, defaults); diff != "" {
		t.Errorf("input defaults, code (-) vs action.yml (+):\n%s", diff)
	}
	var outputs []string
	for name, out := range meta.Outputs {
		if out.Description == "" {
			t.Errorf("output %q has no description", name)
		}
		outputs = append(outputs, name)
	}
	sort.Strings(outputs)
	want := []string{"baseline-score", "comment-url", "delta", "failed-channels", "grade", "html-path", "refresh-pr-url", "report-path", "score", "verdict"}
	if diff := cmp.Diff(want, outputs); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if meta.Runs.Using != "docker" || meta.Runs.Image != "Dockerfile" {
		t.Errorf("runs = %+v, want the Dockerfile", meta.Runs)
	}
}
