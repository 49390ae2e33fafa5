package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/chat"
	"github.com/evalgate/evalgate/internal/pricing"
)

// OpenAIConfig describes the system under test as a model behind an OpenAI-compatible
// chat completions endpoint. Its names match the judge's config where they overlap.
type OpenAIConfig struct {
	// Model is the model id, pinned; floating aliases ("latest", "*-latest") are
	// refused unless AllowFloatingAlias (seed 001 §4.2).
	Model              string `yaml:"model" json:"model"`
	AllowFloatingAlias bool   `yaml:"allow_floating_alias" json:"allow_floating_alias,omitempty"`
	// BaseURL defaults to $OPENAI_BASE_URL, then the OpenAI API.
	BaseURL string `yaml:"base_url" json:"base_url,omitempty"`
	// APIKey is the key; prefer APIKeyEnv (default OPENAI_API_KEY).
	APIKey    string `yaml:"api_key" json:"-"`
	APIKeyEnv string `yaml:"api_key_env" json:"api_key_env,omitempty"`
	// Prompt is the user message template; default "{{prompt}}".
	Prompt string `yaml:"prompt" json:"prompt,omitempty"`
	// System is an optional system message template.
	System string `yaml:"system" json:"system,omitempty"`
	// Generation parameters, with seed 001 §4.1's defaults: temperature 0, top_p 1,
	// max_tokens 1024, seed 42.
	Temperature float64  `yaml:"temperature" json:"temperature"`
	TopP        *float64 `yaml:"top_p" json:"top_p,omitempty"`
	MaxTokens   int      `yaml:"max_tokens" json:"max_tokens,omitempty"`
	Seed        *int64   `yaml:"seed" json:"seed,omitempty"`
	// Timeout bounds each attempt (default 60s); MaxRetries the extra attempts on
	// 429/5xx/timeouts (default 3, negative for none).
	Timeout    time.Duration `yaml:"timeout" json:"timeout,omitempty"`
	MaxRetries int           `yaml:"max_retries" json:"max_retries,omitempty"`
	// RequestsPerMinute and TokensPerMinute rate-limit calls; 0 = unlimited.
	RequestsPerMinute int `yaml:"requests_per_minute" json:"requests_per_minute,omitempty"`
	TokensPerMinute   int `yaml:"tokens_per_minute" json:"tokens_per_minute,omitempty"`
}

// OpenAI answers items by sending the rendered prompt to a chat model.
type OpenAI struct {
	model     string
	prompt    *Prompt
	system    *Prompt // nil: no system message
	params    openai.ChatCompletionNewParams
	maxTokens int
	client    *chat.Client
}

// NewOpenAI checks cfg and builds the system. getenv (os.Getenv when nil) supplies
// OPENAI_BASE_URL and the key variable; concurrency sizes the connection pool.
func NewOpenAI(cfg OpenAIConfig, getenv func(string) string, concurrency int, opts ...chat.Option) (*OpenAI, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("runner: openai: model is empty; name a pinned model")
	}
	if judge.IsFloatingAlias(cfg.Model) && !cfg.AllowFloatingAlias {
		return nil, fmt.Errorf("runner: openai: model %q is a floating alias whose meaning changes over time, so runs would not be comparable; "+
			"pin a dated version or set allow_floating_alias: true", cfg.Model)
	}
	if cfg.Prompt == "" {
		cfg.Prompt = "{{prompt}}"
	}
	prompt, err := ParsePrompt(cfg.Prompt)
	if err != nil {
		return nil, fmt.Errorf("runner: openai: %w", err)
	}
	o := &OpenAI{model: cfg.Model, prompt: prompt}
	if cfg.System != "" {
		if o.system, err = ParsePrompt(cfg.System); err != nil {
			return nil, fmt.Errorf("runner: openai: system %w", err)
		}
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = getenv("OPENAI_BASE_URL")
	}
	if cfg.APIKeyEnv == "" {
		cfg.APIKeyEnv = "OPENAI_API_KEY"
	}
	if cfg.APIKey == "" {
		cfg.APIKey = getenv(cfg.APIKeyEnv)
	}
	topP, seed := 1.0, int64(42)
	if cfg.TopP != nil {
		topP = *cfg.TopP
	}
	if cfg.Seed != nil {
		seed = *cfg.Seed
	}
	o.maxTokens = cfg.MaxTokens
	if o.maxTokens == 0 {
		o.maxTokens = 1024
	}
	o.params = openai.ChatCompletionNewParams{
		Model:       cfg.Model,
		Temperature: openai.Float(cfg.Temperature),
		TopP:        openai.Float(topP),
		MaxTokens:   openai.Int(int64(o.maxTokens)),
		Seed:        openai.Int(seed),
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	retries := cfg.MaxRetries
	switch {
	case retries == 0:
		retries = 3
	case retries < 0:
		retries = 0
	}
	o.client = chat.New(chat.Config{
		BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Timeout: timeout, MaxRetries: retries,
		RequestsPerMinute: cfg.RequestsPerMinute, TokensPerMinute: cfg.TokensPerMinute,
		Concurrency: concurrency,
	}, opts...)
	return o, nil
}

// messageOverhead is a generous bound on the tokens a chat message costs beyond its
// text (role and separators).
const messageOverhead = 16

// WorstUsage is the most one item's call can use: every byte of its prompt as a token
// (a token is at least one byte of text) plus each message's overhead, and max_tokens
// of output. A budget reserves its cost before the call starts.
func (o *OpenAI) WorstUsage(it Item) (pricing.Usage, error) {
	user, err := o.prompt.Render(it)
	if err != nil {
		return pricing.Usage{}, fmt.Errorf("runner: %w", err)
	}
	in := len(user) + messageOverhead
	if o.system != nil {
		sys, err := o.system.Render(it)
		if err != nil {
			return pricing.Usage{}, fmt.Errorf("runner: %w", err)
		}
		in += len(sys) + messageOverhead
	}
	return pricing.Usage{Input: float64(in), Output: float64(o.maxTokens)}, nil
}

// Model is the configured model id, which prices its calls.
func (o *OpenAI) Model() string { return o.model }

// Check reports every item that lacks a field the prompt templates read.
func (o *OpenAI) Check(items []Item) error {
	if err := o.prompt.Check(items); err != nil {
		return err
	}
	if o.system != nil {
		return o.system.Check(items)
	}
	return nil
}

// Run sends one item's prompt.
func (o *OpenAI) Run(ctx context.Context, it Item) (Result, error) {
	user, err := o.prompt.Render(it)
	if err != nil {
		return Result{}, fmt.Errorf("runner: %w", err)
	}
	params := o.params
	params.Messages = []openai.ChatCompletionMessageParamUnion{openai.UserMessage(user)}
	sys := ""
	if o.system != nil {
		if sys, err = o.system.Render(it); err != nil {
			return Result{}, fmt.Errorf("runner: %w", err)
		}
		params.Messages = append([]openai.ChatCompletionMessageParamUnion{openai.SystemMessage(sys)}, params.Messages...)
	}
	start := time.Now()
	rep, err := o.client.Complete(ctx, params, chat.EstimateTokens(sys+user, o.maxTokens))
	r := Result{ID: it.ID}
	var te *chat.TimeoutError
	switch {
	case ctx.Err() != nil:
		return Result{}, ctx.Err()
	case err != nil && chat.IsFatal(err):
		return Result{}, fmt.Errorf("runner: item %q: %w", it.ID, err)
	case errors.As(err, &te):
		r.TimedOut = true
		r.LatencyE2EMs = millis(time.Since(start))
		return r, nil
	case err != nil:
		r.Error = err.Error()
		r.LatencyE2EMs = millis(time.Since(start))
		return r, nil
	}
	c := rep.Completion
	r.LatencyE2EMs = millis(rep.Latency)
	r.Model = c.Model
	if len(c.Choices) > 0 {
		r.Output = c.Choices[0].Message.Content
	}
	if c.Usage.JSON.PromptTokens.Valid() {
		r.InputTokens = &c.Usage.PromptTokens
	}
	if c.Usage.JSON.CompletionTokens.Valid() {
		r.OutputTokens = &c.Usage.CompletionTokens
	}
	if r.InputTokens != nil && c.Usage.PromptTokensDetails.JSON.CachedTokens.Valid() {
		r.CachedInputTokens = &c.Usage.PromptTokensDetails.CachedTokens
	}
	// The provider's header: a value the results loader would refuse (Inf, NaN, past
	// eval.MaxLatencyMs) is left out, or the run would write a file check cannot read.
	if ms, err := strconv.ParseFloat(rep.Header.Get("openai-processing-ms"), 64); err == nil && ms >= 0 && ms <= eval.MaxLatencyMs {
		r.LatencyModelMs = &ms
	}
	return r, nil
}
