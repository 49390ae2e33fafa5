package judge_test

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/judge"
)

func TestIsFloatingAlias(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"latest":              true,
		"LATEST":              true,
		"gpt-4o-latest":       true,
		"chatgpt-4o-latest":   true,
		"llama3:latest":       true,
		"anthropic/latest":    true,
		"model@latest":        true,
		"gpt-4o-2024-08-06":   false,
		"latest-model-2024":   false, // "latest" is part of a pinned name here
		"claude-3-5-sonnet-1": false,
	}
	for m, want := range tests {
		if got := judge.IsFloatingAlias(m); got != want {
			t.Errorf("IsFloatingAlias(%q) = %v; want %v", m, got, want)
		}
	}
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	neg := -0.5
	tests := []struct {
		name    string
		cfg     judge.Config
		wantErr []string // each must appear; none = valid
	}{
		{name: "pinned model", cfg: judge.Config{Model: "gpt-4o-2024-08-06"}},
		{
			name:    "floating alias refused",
			cfg:     judge.Config{Model: "gpt-4o-latest"},
			wantErr: []string{`judge: model "gpt-4o-latest" is a floating alias`, "allow_floating_alias: true"},
		},
		{name: "floating alias allowed", cfg: judge.Config{Model: "gpt-4o-latest", AllowFloatingAlias: true}},
		{name: "no model", cfg: judge.Config{}, wantErr: []string{"judge: model is empty"}},
		{
			// Every problem is listed at once.
			name: "several problems",
			cfg:  judge.Config{Model: "m-1", Temperature: 3, TopP: &neg, Concurrency: -1, MaxCalls: -2},
			wantErr: []string{
				"temperature is 3; want 0..2", "top_p is -0.5", "concurrency is -1", "max_calls is -2",
			},
		},
		{name: "replay needs the cache", cfg: judge.Config{Model: "m-1", Replay: true, NoCache: true}, wantErr: []string{"cannot be combined with no_cache"}},
		{name: "unknown template", cfg: judge.Config{Model: "m-1", Template: "no/such/file.txt"}, wantErr: []string{`judge template "no/such/file.txt" is neither a built-in (accuracy-faithfulness, rubric-1-10) nor a readable file`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := judge.New(tt.cfg, judge.WithGetenv(func(string) string { return "" }))
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("New accepted the config; want errors %q", tt.wantErr)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	j, err := judge.New(judge.Config{Model: "m-1"}, judge.WithGetenv(func(string) string { return "" }))
	if err != nil {
		t.Fatal(err)
	}
	// Seed 001 §4.1's generation defaults.
	if got, want := j.Params(), (judge.Params{Temperature: 0, TopP: 1, MaxTokens: 1024, Seed: 42}); got != want {
		t.Errorf("Params() = %+v; want %+v", got, want)
	}
	if id := j.Template().ID; id != judge.TemplateAccuracyFaithfulness {
		t.Errorf("default template %q; want accuracy-faithfulness", id)
	}
}
