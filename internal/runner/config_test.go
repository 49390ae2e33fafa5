package runner_test

import (
	"testing"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/evalgate/evalgate/internal/runner"
)

func TestConfigYAML(t *testing.T) {
	t.Parallel()
	const doc = `
concurrency: 4
exec:
  command: [python3, sut.py]
  shell: false
  dir: examples/tutor-capstone
  env: [MODE=test]
  timeout: 30s
  requests_per_minute: 120
`
	var got runner.Config
	if err := yaml.UnmarshalWithOptions([]byte(doc), &got, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	want := runner.Config{Concurrency: 4, Exec: &runner.Exec{
		Command: []string{"python3", "sut.py"}, Dir: "examples/tutor-capstone", Env: []string{"MODE=test"},
		Timeout: 30 * time.Second, RequestsPerMinute: 120,
	}}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(runner.Exec{})); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}

func TestConfigSystem(t *testing.T) {
	t.Parallel()
	exec := &runner.Exec{Command: []string{"true"}}
	oa := &runner.OpenAIConfig{Model: "m-2024-01-01"}
	tests := []struct {
		name    string
		cfg     runner.Config
		wantErr string
	}{
		{"exec inferred", runner.Config{Exec: exec}, ""},
		{"openai inferred", runner.Config{OpenAI: oa}, ""},
		{"explicit mode", runner.Config{Mode: "exec", Exec: exec}, ""},
		{"nothing", runner.Config{}, "no system under test"},
		{"both", runner.Config{Exec: exec, OpenAI: oa}, "both exec and openai"},
		{"mode without block", runner.Config{Mode: "openai"}, "openai mode needs an openai block"},
		{"empty command", runner.Config{Exec: &runner.Exec{}}, "exec mode needs exec.command"},
		{"unknown mode", runner.Config{Mode: "grpc", Exec: exec}, `unknown mode "grpc"; want exec or openai`},
		{"negative concurrency", runner.Config{Exec: exec, Concurrency: -1}, "concurrency is -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.cfg.System(func(string) string { return "" })
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v; want it to contain %q", err, tt.wantErr)
			}
		})
	}
}
