package github

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	gh "github.com/google/go-github/v60/github"

	"github.com/evalgate/evalgate/internal/originauth"
)

// DefaultBaseURL is the REST API root used when neither Options.BaseURL nor the
// GITHUB_API_URL environment variable names one.
const DefaultBaseURL = "https://api.github.com/"

// DefaultRetryBudget bounds the total time one API call may spend waiting between
// retries (5xx answers and rate limits).
const DefaultRetryBudget = 60 * time.Second

// DefaultRequestTimeout bounds one request, from the first byte sent to the last byte
// of the answer read, so a connection GitHub accepts and never answers cannot hang the
// job.
const DefaultRequestTimeout = 30 * time.Second

// Options configure a Client. Only Token is usually set; the rest has defaults.
type Options struct {
	// Token authenticates every request to the API's origin (the workflow's
	// GITHUB_TOKEN or a PAT), and is never sent anywhere else.
	Token string
	// BaseURL is the REST API root. Empty means $GITHUB_API_URL (set by Actions, and
	// pointing at https://HOST/api/v3 on GitHub Enterprise Server), then DefaultBaseURL.
	BaseURL string
	// HTTPClient sends the requests; its Transport is wrapped with retries. Nil means
	// a client with http.DefaultTransport.
	HTTPClient *http.Client
	// RetryBudget bounds the time spent waiting between retries of one call;
	// 0 means DefaultRetryBudget, a negative value disables retries.
	RetryBudget time.Duration
	// RequestTimeout bounds each request (each retry has its own); 0 means
	// DefaultRequestTimeout, a negative value none. A whole call is also bounded by its
	// context's deadline, and never waits between retries past it.
	RequestTimeout time.Duration

	// sleep and now replace the clock in tests.
	sleep func(context.Context, time.Duration) error
	now   func() time.Time
	// maxBody replaces MaxAnswerBytes in tests.
	maxBody int64
}

// Client talks to the GitHub REST API on behalf of the action.
type Client struct {
	gh    *gh.Client
	sleep func(context.Context, time.Duration) error
	now   func() time.Time

	mu    sync.Mutex
	login string // the token's identity, once Identity has found it
}

// New returns a Client for opts.
func New(opts Options) (*Client, error) {
	base := opts.BaseURL
	if base == "" {
		base = os.Getenv("GITHUB_API_URL")
	}
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("github: API base URL %q is not an absolute URL", base)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}

	hc := http.Client{}
	if opts.HTTPClient != nil {
		hc = *opts.HTTPClient
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	budget := opts.RetryBudget
	if budget == 0 {
		budget = DefaultRetryBudget
	}
	timeout := opts.RequestTimeout
	if timeout == 0 {
		timeout = DefaultRequestTimeout
	}
	rt := newRetryTransport(next, budget, max(timeout, 0), opts.sleep, opts.now)
	if opts.maxBody > 0 {
		rt.maxBody = opts.maxBody
	}
	hc.Transport = rt

	// The token goes to the API's origin only, and an answer is only taken from there:
	// a redirect to another origin or from https to http is refused, with an error that
	// names both origins (go-github's own token transport would send the token along).
	bind, err := originauth.Bearer(u.String(), opts.Token, originauth.Refuse, nil)
	if err != nil {
		return nil, fmt.Errorf("github: %w", err)
	}
	c := gh.NewClient(bind.Client(&hc))
	c.BaseURL = u
	c.UserAgent = "evalgate"
	out := &Client{gh: c, sleep: opts.sleep, now: opts.now}
	if out.sleep == nil {
		out.sleep = sleepContext
	}
	if out.now == nil {
		out.now = time.Now
	}
	return out, nil
}
