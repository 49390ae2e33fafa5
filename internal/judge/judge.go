package judge

import (
	"io"
	"os"
	"sync"
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
	caller   Caller     // nil in replay mode: no call may be made
	cache    *diskCache // nil with NoCache
	budget   *budget
	cost     *costBudget // nil: no max_cost_usd
	progress progressSink
}

type progressSink struct {
	w      io.Writer
	newBar func(label string, total int) Bar
	// cachedOnce prints the "from the cache" line once for every judge built with the
	// same WithProgress option: a panel's reviewers, all answered from the cache, show
	// one line, not one each.
	cachedOnce *sync.Once
}

// Bar counts the calls a batch makes; the CLI's progress bar is one.
type Bar interface {
	Add(n int)
	Finish()
}

// Option changes how New builds a Judge.
type Option func(*options)

type options struct {
	getenv    func(string) string
	progress  progressSink
	newCaller NewCaller
	cost      *costBudget
}

// WithGetenv replaces os.Getenv for OPENAI_BASE_URL and the API key variable.
func WithGetenv(f func(string) string) Option { return func(o *options) { o.getenv = f } }

// WithProgress reports progress on w: a line when the cache answers a whole batch
// (once for all the judges built with this option), and a Bar from newBar (nil: none) over the calls of the others. Without it nothing
// is reported.
func WithProgress(w io.Writer, newBar func(label string, total int) Bar) Option {
	once := new(sync.Once)
	return func(o *options) { o.progress = progressSink{w: w, newBar: newBar, cachedOnce: once} }
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
	if !cfg.Replay && o.newCaller != nil {
		j.caller = o.newCaller(cfg, j.budget.takeCall)
	}
	return j, nil
}

// Template returns the judge's template.
func (j *Judge) Template() *Template { return j.tmpl }

// Params returns the generation parameters the judge sends.
func (j *Judge) Params() Params { return j.params }

// Key returns r's cache key; tests and tools use it to find a verdict's file.
func (j *Judge) Key(r Request) string { return cacheKey(j.cfg.Model, j.hash, j.params, r) }
