package judge

import (
	"io"
	"os"
	"sync"

	"github.com/evalgate/evalgate/internal/judge/chat"
)

// Params are the generation parameters sent with every judge call (seed 001 §4.1).
type Params struct {
	Temperature float64 `json:"temperature"`
	TopP        float64 `json:"top_p"`
	MaxTokens   int     `json:"max_tokens"`
	Seed        int64   `json:"seed"`
}

// Judge scores Requests with one template and one model. It is safe for concurrent use.
type Judge struct {
	cfg      Config
	tmpl     *Template
	hash     string
	params   Params
	client   *chat.Client // nil in replay mode: no call may be made
	cache    *diskCache   // nil with NoCache
	budget   *budget
	cost     *costBudget // nil: no max_cost_usd
	progress progressSink
	// cachedOnce prints the "from the cache" line once per judge.
	cachedOnce sync.Once
}

type progressSink struct {
	w          io.Writer
	isTerminal func() bool
}

// Option changes how New builds a Judge.
type Option func(*options)

type options struct {
	getenv   func(string) string
	progress progressSink
	chatOpts []chat.Option
	cost     *costBudget
}

// WithGetenv replaces os.Getenv for OPENAI_BASE_URL and the API key variable.
func WithGetenv(f func(string) string) Option { return func(o *options) { o.getenv = f } }

// WithProgress reports progress on w: a bar when isTerminal() is true, plain lines
// otherwise. Without it nothing is reported.
func WithProgress(w io.Writer, isTerminal func() bool) Option {
	return func(o *options) { o.progress = progressSink{w: w, isTerminal: isTerminal} }
}

// WithChatOptions passes options to the chat client (tests use it to skip waits).
func WithChatOptions(opts ...chat.Option) Option {
	return func(o *options) { o.chatOpts = append(o.chatOpts, opts...) }
}

// New checks cfg, loads its template and returns a Judge.
func New(cfg Config, opts ...Option) (*Judge, error) {
	o := options{getenv: os.Getenv}
	for _, f := range opts {
		f(&o)
	}
	cfg = cfg.withDefaults(o.getenv)
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	tmpl, err := LoadTemplate(cfg.Template)
	if err != nil {
		return nil, err
	}
	j := &Judge{
		cfg:  cfg,
		tmpl: tmpl,
		hash: tmpl.Hash(),
		params: Params{
			Temperature: cfg.Temperature, TopP: *cfg.TopP, MaxTokens: cfg.MaxTokens, Seed: *cfg.Seed,
		},
		budget:   &budget{maxCalls: int64(cfg.MaxCalls), maxTokens: int64(cfg.MaxTotalTokens)},
		cost:     o.cost,
		progress: o.progress,
	}
	if !cfg.NoCache {
		j.cache = &diskCache{dir: cfg.CacheDir}
	}
	if !cfg.Replay {
		chatOpts := append([]chat.Option{chat.WithBeforeAttempt(j.budget.takeCall)}, o.chatOpts...)
		j.client = chat.New(chat.Config{
			BaseURL:           cfg.BaseURL,
			APIKey:            cfg.APIKey,
			Timeout:           cfg.Timeout,
			MaxRetries:        cfg.MaxRetries,
			RequestsPerMinute: cfg.RequestsPerMinute,
			TokensPerMinute:   cfg.TokensPerMinute,
			Concurrency:       cfg.Concurrency,
		}, chatOpts...)
	}
	return j, nil
}

// Template returns the judge's template.
func (j *Judge) Template() *Template { return j.tmpl }

// Params returns the generation parameters the judge sends.
func (j *Judge) Params() Params { return j.params }

// Key returns r's cache key; tests and tools use it to find a verdict's file.
func (j *Judge) Key(r Request) string { return cacheKey(j.cfg.Model, j.hash, j.params, r) }
