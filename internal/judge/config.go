package judge

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Defaults for Config's zero values. The generation defaults are seed 001 §4.1's.
const (
	DefaultTemperature = 0.0
	DefaultTopP        = 1.0
	DefaultMaxTokens   = 1024
	DefaultSeed        = 42
	DefaultAPIKeyEnv   = "OPENAI_API_KEY"
	DefaultBaseURLEnv  = "OPENAI_BASE_URL"
	DefaultTimeout     = 60 * time.Second
	DefaultMaxRetries  = 3
	DefaultConcurrency = 8
	DefaultCacheDir    = ".evalgate/judge-cache"
)

// Config is how the judge is set up. Its zero value, with a Model, is valid: the
// defaults are filled in by New. The yaml and json names are those of the `judge:`
// block of evalgate.yaml.
type Config struct {
	// Model is the judge model id, pinned (e.g. "gpt-4o-2024-08-06").
	Model string `yaml:"model" json:"model"`
	// AllowFloatingAlias permits a model such as "latest" or "gpt-4o-latest", which
	// seed 001 §4.2 forbids in benchmark runs because its meaning changes under you.
	AllowFloatingAlias bool `yaml:"allow_floating_alias" json:"allow_floating_alias,omitempty"`
	// BaseURL is the API root; empty means $OPENAI_BASE_URL, then the OpenAI API.
	BaseURL string `yaml:"base_url" json:"base_url,omitempty"`
	// APIKey is the key itself. Prefer APIKeyEnv: a key in a config file gets committed.
	APIKey string `yaml:"api_key" json:"-"`
	// APIKeyEnv names the environment variable holding the key; default OPENAI_API_KEY.
	APIKeyEnv string `yaml:"api_key_env" json:"api_key_env,omitempty"`

	// Temperature defaults to 0.
	Temperature float64 `yaml:"temperature" json:"temperature"`
	// TopP defaults to 1.
	TopP *float64 `yaml:"top_p" json:"top_p,omitempty"`
	// MaxTokens bounds each reply; default 1024.
	MaxTokens int `yaml:"max_tokens" json:"max_tokens,omitempty"`
	// Seed is sent for providers with seeded sampling; default 42.
	Seed *int64 `yaml:"seed" json:"seed,omitempty"`

	// Template is a built-in name (accuracy-faithfulness, the default, or rubric-1-10) or a file path.
	Template string `yaml:"template" json:"template,omitempty"`

	// Timeout bounds each HTTP attempt; default 60s.
	Timeout time.Duration `yaml:"timeout" json:"timeout,omitempty"`
	// MaxRetries is the number of extra attempts on 429/5xx/timeouts; default 3.
	// Use a negative value for none.
	MaxRetries int `yaml:"max_retries" json:"max_retries,omitempty"`
	// Concurrency is how many items are judged at once; default 8.
	Concurrency int `yaml:"concurrency" json:"concurrency,omitempty"`
	// RequestsPerMinute and TokensPerMinute rate-limit calls; 0 = unlimited.
	RequestsPerMinute int `yaml:"requests_per_minute" json:"requests_per_minute,omitempty"`
	TokensPerMinute   int `yaml:"tokens_per_minute" json:"tokens_per_minute,omitempty"`
	// MaxCalls and MaxTotalTokens are the run's budget (HTTP calls, prompt plus
	// completion tokens); 0 = unlimited. Going over stops the run with an error.
	MaxCalls       int `yaml:"max_calls" json:"max_calls,omitempty"`
	MaxTotalTokens int `yaml:"max_total_tokens" json:"max_total_tokens,omitempty"`
	// MaxCostUSD caps what the judge's calls may cost, in US dollars: a call starts
	// only while the budget covers its worst case besides the calls in flight (its
	// prompt and max_tokens, at the model's price); then the run stops with an error
	// and the verdicts made so far stay in the cache. 0 = unlimited. Needs a price for
	// the model (the built-in table or `pricing:`).
	MaxCostUSD float64 `yaml:"max_cost_usd" json:"max_cost_usd,omitempty"`

	// CacheDir holds the verdict cache; default .evalgate/judge-cache.
	CacheDir string `yaml:"cache_dir" json:"cache_dir,omitempty"`
	// NoCache neither reads nor writes the cache.
	NoCache bool `yaml:"no_cache" json:"no_cache,omitempty"`
	// Replay answers from the cache only: a miss is an error, no call is made.
	Replay bool `yaml:"replay" json:"replay,omitempty"`
}

// withDefaults returns c with zero values replaced by defaults and the environment
// (through getenv) consulted for the base URL and key.
func (c Config) withDefaults(getenv func(string) string) Config {
	if c.BaseURL == "" {
		c.BaseURL = getenv(DefaultBaseURLEnv)
	}
	if c.APIKeyEnv == "" {
		c.APIKeyEnv = DefaultAPIKeyEnv
	}
	if c.APIKey == "" {
		c.APIKey = getenv(c.APIKeyEnv)
	}
	if c.TopP == nil {
		v := DefaultTopP
		c.TopP = &v
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	if c.Seed == nil {
		v := int64(DefaultSeed)
		c.Seed = &v
	}
	if c.Template == "" {
		c.Template = TemplateAccuracyFaithfulness
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	switch {
	case c.MaxRetries == 0:
		c.MaxRetries = DefaultMaxRetries
	case c.MaxRetries < 0:
		c.MaxRetries = 0
	}
	if c.Concurrency == 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.CacheDir == "" {
		c.CacheDir = DefaultCacheDir
	}
	return c
}

// Validate reports every problem in c at once (errors.Join), as a user fixing a config
// file wants them.
func (c Config) Validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch {
	case strings.TrimSpace(c.Model) == "":
		add("judge: model is empty; name a pinned model such as \"gpt-4o-2024-08-06\"")
	case IsFloatingAlias(c.Model) && !c.AllowFloatingAlias:
		add("judge: model %q is a floating alias whose meaning changes over time, so scores would not be comparable; "+
			"pin a dated version or set allow_floating_alias: true", c.Model)
	}
	if c.Temperature < 0 || c.Temperature > 2 {
		add("judge: temperature is %g; want 0..2", c.Temperature)
	}
	if c.TopP != nil && (*c.TopP <= 0 || *c.TopP > 1) {
		add("judge: top_p is %g; want a value in (0, 1]", *c.TopP)
	}
	for _, f := range []struct {
		name string
		v    int
	}{
		{"max_tokens", c.MaxTokens}, {"concurrency", c.Concurrency},
		{"requests_per_minute", c.RequestsPerMinute}, {"tokens_per_minute", c.TokensPerMinute},
		{"max_calls", c.MaxCalls}, {"max_total_tokens", c.MaxTotalTokens},
	} {
		if f.v < 0 {
			add("judge: %s is %d; want 0 (the default or unlimited) or more", f.name, f.v)
		}
	}
	if c.Timeout < 0 {
		add("judge: timeout is %s; want a positive duration", c.Timeout)
	}
	if !(c.MaxCostUSD >= 0) {
		add("judge: max_cost_usd is %v; want a positive amount of US dollars (0: unlimited)", c.MaxCostUSD)
	}
	if c.Replay && c.NoCache {
		add("judge: replay answers from the cache, so it cannot be combined with no_cache")
	}
	return errors.Join(errs...)
}
