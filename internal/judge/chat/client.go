package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/evalgate/evalgate/internal/originauth"
	"github.com/evalgate/evalgate/internal/safeio"
)

// DefaultBaseURL is used when neither the config nor OPENAI_BASE_URL names one.
const DefaultBaseURL = "https://api.openai.com/v1/"

// maxErrorBody is how much of an error reply goes into StatusError.Body.
const maxErrorBody = 512

// Config says where to send calls and how patiently.
type Config struct {
	// BaseURL is the API root, e.g. "https://api.openai.com/v1" or
	// "http://localhost:11434/v1"; "chat/completions" is appended. Empty means
	// DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token when not empty, to BaseURL's origin only: a
	// redirect to another origin, or from https to http, is refused.
	APIKey string
	// Timeout bounds each attempt, from sending the request to reading the whole
	// reply. Zero means no limit besides the context's.
	Timeout time.Duration
	// MaxRetries is how many more attempts a retryable failure gets, so a call makes
	// at most MaxRetries+1 HTTP requests.
	MaxRetries int
	// RequestsPerMinute and TokensPerMinute rate-limit every attempt; 0 = unlimited.
	RequestsPerMinute, TokensPerMinute int
	// HTTPClient defaults to one whose idle pool fits Concurrency connections.
	HTTPClient *http.Client
	// Concurrency is how many calls run at once, used to size the connection pool.
	Concurrency int
	// MaxReplyBytes bounds each reply read; 0 means DefaultMaxReplyBytes. A longer
	// reply fails the attempt with a *ReplyTooLargeError, which is not retried.
	MaxReplyBytes int64
}

// DefaultMaxReplyBytes bounds a reply: far above any chat completion's, far below what
// would exhaust the memory of a job that keeps a worker's reply per call.
const DefaultMaxReplyBytes = 16 << 20

// ReplyTooLargeError is a reply cut off at Config.MaxReplyBytes.
type ReplyTooLargeError struct{ Limit int64 }

func (e *ReplyTooLargeError) Error() string {
	return fmt.Sprintf("a reply of more than %d bytes: not read further", e.Limit)
}

// cappedTransport hands on replies that fail past limit bytes.
type cappedTransport struct {
	next  http.RoundTripper
	limit int64
}

func (t *cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil && resp.Body != nil {
		limit := t.limit
		resp.Body = cappedBody{Reader: safeio.Bounded(resp.Body, limit, func() error { return &ReplyTooLargeError{Limit: limit} }), Closer: resp.Body}
	}
	return resp, err
}

// cappedBody is a reply's body read to its bound (safeio.Bounded), closed as the body.
type cappedBody struct {
	io.Reader
	io.Closer
}

// Client sends chat completion requests with retries, rate limits and attempt hooks.
type Client struct {
	err        error // the client cannot send anything (a base URL that is not absolute)
	svc        openai.ChatCompletionService
	timeout    time.Duration
	maxRetries int
	limiter    *Limiter
	backoff    func(retry int) time.Duration
	sleep      func(ctx context.Context, d time.Duration) error
	before     func() error
	now        func() time.Time
}

// Option changes a Client, mostly for tests.
type Option func(*Client)

// WithBackoff replaces DefaultBackoff, the wait before a retry when the server gave
// no Retry-After.
func WithBackoff(f func(retry int) time.Duration) Option { return func(c *Client) { c.backoff = f } }

// WithSleep replaces the wait between attempts (a timer that stops with ctx).
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = f }
}

// WithBeforeAttempt registers f to run before every HTTP attempt, retries included. An
// error from f stops the call and is returned as is; a budget uses it to refuse the
// call that would go over.
func WithBeforeAttempt(f func() error) Option { return func(c *Client) { c.before = f } }

// New returns a Client for cfg.
func New(cfg Config, opts ...Option) *Client {
	base := cfg.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = pooledHTTPClient(cfg.Concurrency)
	}
	capped := *hc
	if capped.Transport == nil {
		capped.Transport = http.DefaultTransport
	}
	limit := cfg.MaxReplyBytes
	if limit <= 0 {
		limit = DefaultMaxReplyBytes
	}
	capped.Transport = &cappedTransport{next: capped.Transport, limit: limit}
	hc = &capped
	// The key travels on base's origin only (the binding sets it there and strips it
	// everywhere else), and an answer is only taken from there.
	bind, err := originauth.Bearer(base, cfg.APIKey, originauth.Refuse, nil)
	if err == nil {
		hc = bind.Client(hc)
	} else {
		err = fmt.Errorf("chat: %w", err)
	}
	reqOpts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0), // retries are ours, so each attempt is counted
	}
	c := &Client{
		err: err,
		// NewChatCompletionService, unlike openai.NewClient, reads no environment
		// variables: the caller decides what the environment means.
		svc:        openai.NewChatCompletionService(reqOpts...),
		timeout:    cfg.Timeout,
		maxRetries: max(0, cfg.MaxRetries),
		limiter:    NewLimiter(cfg.RequestsPerMinute, cfg.TokensPerMinute),
		now:        time.Now,
	}
	// The waits between attempts are options like any other: these defaults first, so
	// an option given replaces them.
	for _, o := range append([]Option{WithBackoff(DefaultBackoff), WithSleep(sleepCtx)}, opts...) {
		o(c)
	}
	return c
}

// pooledHTTPClient keeps up to n idle connections to the endpoint; the default of two
// would make a pool of 16 workers open and close connections all run long.
func pooledHTTPClient(n int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = max(n, 2)
	t.MaxIdleConns = max(n, 2, t.MaxIdleConns)
	return &http.Client{Transport: t}
}

// Reply is a successful call.
type Reply struct {
	Completion *openai.ChatCompletion
	// Header holds the reply's HTTP headers (e.g. openai-processing-ms).
	Header http.Header
	// Attempts is how many HTTP requests the call made; it is set on failure too.
	Attempts int
	// Latency is the successful attempt's time from sending to the full reply; rate
	// limit waits and backoff are not in it.
	Latency time.Duration
}

// Complete sends params, retrying retryable failures up to MaxRetries times.
// estTokens feeds the token rate limiter (see EstimateTokens).
func (c *Client) Complete(ctx context.Context, params openai.ChatCompletionNewParams, estTokens int) (Reply, error) {
	var r Reply
	if c.err != nil {
		return r, c.err
	}
	for retry := 0; ; retry++ {
		if err := c.limiter.Wait(ctx, estTokens); err != nil {
			return r, err
		}
		if c.before != nil {
			if err := c.before(); err != nil {
				return r, err
			}
		}
		r.Attempts++
		comp, hdr, lat, err := c.attempt(ctx, params)
		if err == nil {
			r.Completion, r.Header, r.Latency = comp, hdr, lat
			return r, nil
		}
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		if !retryable(err) || retry >= c.maxRetries {
			return r, err
		}
		wait := c.backoff(retry)
		var se *StatusError
		if errors.As(err, &se) && se.RetryAfter > 0 {
			if se.RetryAfter > maxRetryAfter {
				return r, err
			}
			wait = se.RetryAfter
		}
		if err := c.sleep(ctx, wait); err != nil {
			return r, err
		}
	}
}

// attempt makes exactly one HTTP request.
func (c *Client) attempt(ctx context.Context, params openai.ChatCompletionNewParams) (*openai.ChatCompletion, http.Header, time.Duration, error) {
	actx := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	var resp *http.Response
	start := c.now()
	comp, err := c.svc.New(actx, params, option.WithResponseInto(&resp))
	lat := c.now().Sub(start)
	if err == nil {
		return comp, resp.Header, lat, nil
	}
	if ctx.Err() == nil && actx.Err() != nil {
		return nil, nil, lat, &TimeoutError{After: c.timeout}
	}
	if resp != nil && resp.StatusCode >= 400 {
		return nil, nil, lat, statusError(resp, c.now())
	}
	return nil, nil, lat, err
}

// statusError reads an error reply; openai-go leaves its body readable.
func statusError(resp *http.Response, now time.Time) *StatusError {
	se := &StatusError{StatusCode: resp.StatusCode, RetryAfter: parseRetryAfter(resp.Header, now)}
	if resp.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		se.Body = strings.TrimSpace(string(b))
	}
	return se
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
