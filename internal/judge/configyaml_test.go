package judge_test

import (
	"testing"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/judge"
)

// TestConfigYAML pins the names of the `judges:` block of evalgate.yaml, which the
// config package decodes straight into judge.Config.
func TestConfigYAML(t *testing.T) {
	t.Parallel()
	const doc = `
model: gpt-4o-2024-08-06
allow_floating_alias: false
base_url: http://localhost:8080/v1
api_key_env: JUDGE_KEY
temperature: 0
top_p: 1
max_tokens: 512
seed: 7
template: seed003
timeout: 30s
max_retries: 2
concurrency: 16
requests_per_minute: 500
tokens_per_minute: 200000
max_calls: 5000
max_total_tokens: 2000000
cache_dir: .cache/judge
no_cache: false
replay: true
`
	var got judge.Config
	if err := yaml.UnmarshalWithOptions([]byte(doc), &got, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	topP, seed := 1.0, int64(7)
	want := judge.Config{
		Model: "gpt-4o-2024-08-06", BaseURL: "http://localhost:8080/v1", APIKeyEnv: "JUDGE_KEY",
		TopP: &topP, MaxTokens: 512, Seed: &seed, Template: "seed003", Timeout: 30 * time.Second,
		MaxRetries: 2, Concurrency: 16, RequestsPerMinute: 500, TokensPerMinute: 200000,
		MaxCalls: 5000, MaxTotalTokens: 2000000, CacheDir: ".cache/judge", Replay: true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded config (-want +got):\n%s", diff)
	}
}
