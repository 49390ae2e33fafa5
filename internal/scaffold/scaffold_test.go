package scaffold_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/scaffold"
)

var update = flag.Bool("update", false, "rewrite the repository's example workflows from the templates")

// TestExampleWorkflows keeps .github/workflows/example-*.yml equal to what `evalgate
// init` writes (with the guard that stops them running in evalgate's own repository), so
// the examples the docs link to are the files init writes. -update rewrites them.
func TestExampleWorkflows(t *testing.T) {
	files, err := scaffold.Files(scaffold.Options{Name: "my-app", RepoGuard: true})
	if err != nil {
		t.Fatal(err)
	}
	examples := map[string]string{
		scaffold.PRWorkflowFile:       "example-pr-gate.yml",
		scaffold.BaselineWorkflowFile: "example-release-baseline.yml",
	}
	for _, f := range files {
		name, ok := examples[f.Path]
		if !ok {
			continue
		}
		p := filepath.Join("..", "..", ".github", "workflows", name)
		if *update {
			if err := os.WriteFile(p, f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(f.Content), string(got)); diff != "" {
			t.Errorf("%s differs from the template (go test ./internal/scaffold -update) (-template +file):\n%s", p, diff)
		}
	}
}

// TestFilesAreValid writes every mode's files and loads them as evalgate and GitHub
// would: the config validates with both versions filled in, the workflows parse.
func TestFilesAreValid(t *testing.T) {
	t.Parallel()
	for _, mode := range scaffold.Modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			files, err := scaffold.Files(scaffold.Options{Name: "support-bot", Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, f := range files {
				paths = append(paths, f.Path)
				p := filepath.Join(dir, filepath.FromSlash(f.Path))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Content, 0o644); err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(f.Path, ".yml") {
					var wf map[string]any
					if err := yaml.Unmarshal(f.Content, &wf); err != nil {
						t.Errorf("%s: %v", f.Path, err)
					}
					if strings.Contains(string(f.Content), "evalgate/evalgate' &&") || strings.Contains(string(f.Content), "!= 'evalgate/evalgate'") {
						t.Errorf("%s: init's workflow carries the repository guard", f.Path)
					}
				}
			}
			want := []string{scaffold.ConfigFile, scaffold.SuiteFile, scaffold.SystemFile, scaffold.PRWorkflowFile, scaffold.BaselineWorkflowFile}
			if mode == scaffold.ModeOpenAI {
				want = []string{scaffold.ConfigFile, scaffold.SuiteFile, scaffold.PRWorkflowFile, scaffold.BaselineWorkflowFile}
			}
			if diff := cmp.Diff(want, paths); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			cfg, err := config.Load(filepath.Join(dir, scaffold.ConfigFile), nil)
			if err != nil {
				t.Fatalf("the starter config does not load: %v", err)
			}
			if cfg.Scoring.Version != "scoringSystem/1.0.0" || cfg.Grading.Version != "gradingSystem/1.0.0" {
				t.Errorf("versions %q, %q", cfg.Scoring.Version, cfg.Grading.Version)
			}
			if cfg.Name != "support-bot" || cfg.Baseline != "baselines/support-bot.jsonl" {
				t.Errorf("name %q, baseline %q", cfg.Name, cfg.Baseline)
			}
			if _, err := cfg.Run.System(func(string) string { return "key" }); err != nil {
				t.Errorf("run block: %v", err)
			}
		})
	}
}

func TestOptionsRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		o    scaffold.Options
		want string
	}{
		{scaffold.Options{Name: "My App"}, `name "My App": want lowercase letters`},
		{scaffold.Options{Name: "a", Mode: "grpc"}, `mode "grpc": want exec or openai`},
		{scaffold.Options{Name: "a", Mode: "openai", Model: `x"y`}, `model "x\"y"`},
	}
	for _, tt := range tests {
		_, err := scaffold.Files(tt.o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v; want %q", tt.o, err, tt.want)
		}
	}
}

func TestSuiteName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"My App":        "my-app",
		"support_bot":   "support_bot",
		"--.":           "evals",
		"Ünïcode Thing": "n-code-thing", // non-ASCII letters become dashes, then the ends are trimmed
	} {
		if got := scaffold.SuiteName(in); got != want {
			t.Errorf("SuiteName(%q) = %q; want %q", in, got, want)
		}
	}
}

// TestWorkflowsUseDeclaredInputs checks every `with:` of the evalgate action and the
// setup action in init's workflows against the inputs their action.yml declares:
// GitHub only warns about an unknown input, and actionlint cannot see remote actions.
func TestWorkflowsUseDeclaredInputs(t *testing.T) {
	t.Parallel()
	declared := func(p string) map[string]bool {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var a struct {
			Inputs map[string]any `yaml:"inputs"`
		}
		if err := yaml.Unmarshal(b, &a); err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for k := range a.Inputs {
			m[k] = true
		}
		return m
	}
	actions := map[string]map[string]bool{
		"evalgate/evalgate@" + scaffold.ActionRef:       declared("../../action.yml"),
		"evalgate/evalgate/setup@" + scaffold.ActionRef: declared("../../setup/action.yml"),
	}
	files, err := scaffold.Files(scaffold.Options{Name: "x"})
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]int{}
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".yml") {
			continue
		}
		var wf struct {
			Jobs map[string]struct {
				Steps []struct {
					Uses string         `yaml:"uses"`
					With map[string]any `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(f.Content, &wf); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		for job, j := range wf.Jobs {
			for _, s := range j.Steps {
				inputs, ok := actions[s.Uses]
				if !ok {
					continue
				}
				used[s.Uses]++
				for k := range s.With {
					if !inputs[k] {
						t.Errorf("%s: job %s: %s has no input %q", f.Path, job, s.Uses, k)
					}
				}
			}
		}
	}
	// The gate in both jobs of the PR workflow and in the release one; setup in the
	// evaluate and release jobs.
	if used["evalgate/evalgate@v1"] != 3 || used["evalgate/evalgate/setup@v1"] != 2 {
		t.Errorf("uses counted %v; want the gate 3 times and setup twice", used)
	}
}
