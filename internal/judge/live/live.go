// Package live is what a judge needs of the world to call its model: the client that
// sends its prompts to an OpenAI-compatible chat completions endpoint (through package
// chat) and the progress bar over those calls. The CLI plugs them into each judge
// (Calls, ProgressAs); package judge, and everything that only reads judgments, links
// neither.
package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3"

	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/chat"
	"github.com/evalgate/evalgate/internal/progress"
)

// ProgressAs reports a judge's progress on w: a bar when isTerminal() is true, plain
// lines otherwise (progress.Bar). The bar is labelled label instead of the judge's own
// label ("judge") when label is not empty: "judge reliability, repeat 2 of 3".
func ProgressAs(w io.Writer, isTerminal func() bool, label string) judge.Option {
	return judge.WithProgress(w, func(own string, total int) judge.Bar {
		if label != "" {
			own = label
		}
		return progress.NewBar(w, isTerminal, own, total)
	})
}

// Calls makes a judge call its model over the chat client; opts change the client
// (tests skip the waits between attempts).
func Calls(opts ...chat.Option) judge.Option {
	return judge.WithCaller(func(cfg judge.Config, beforeAttempt func() error) judge.Caller {
		chatOpts := append([]chat.Option{chat.WithBeforeAttempt(beforeAttempt)}, opts...)
		return &caller{cfg: cfg, client: chat.New(chat.Config{
			BaseURL:           cfg.BaseURL,
			APIKey:            cfg.APIKey,
			Timeout:           cfg.Timeout,
			MaxRetries:        cfg.MaxRetries,
			RequestsPerMinute: cfg.RequestsPerMinute,
			TokensPerMinute:   cfg.TokensPerMinute,
			Concurrency:       cfg.Concurrency,
		}, chatOpts...)}
	})
}

// caller is one judge's client.
type caller struct {
	cfg    judge.Config
	client *chat.Client
}

// Call sends c as a system and a user message with the judge's generation parameters.
func (c *caller) Call(ctx context.Context, call judge.Call) (judge.Reply, error) {
	p := call.Params
	params := openai.ChatCompletionNewParams{
		Model: call.Model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(call.System),
			openai.UserMessage(call.User),
		},
		Temperature: openai.Float(p.Temperature),
		TopP:        openai.Float(p.TopP),
		MaxTokens:   openai.Int(int64(p.MaxTokens)),
		Seed:        openai.Int(p.Seed),
	}
	rep, err := c.client.Complete(ctx, params, chat.EstimateTokens(call.System+call.User, p.MaxTokens))
	out := judge.Reply{Attempts: rep.Attempts}
	if err != nil {
		if ctx.Err() != nil {
			return out, err
		}
		var te *chat.TimeoutError
		return out, &judge.CallError{Err: err, Fatal: chat.IsFatal(err), Timeout: errors.As(err, &te), Hint: c.hint(err)}
	}
	comp := rep.Completion
	out.Model, out.SystemFingerprint = comp.Model, comp.SystemFingerprint
	out.Usage = judge.Usage{PromptTokens: comp.Usage.PromptTokens, CompletionTokens: comp.Usage.CompletionTokens,
		CachedPromptTokens: comp.Usage.PromptTokensDetails.CachedTokens}
	if len(comp.Choices) > 0 {
		out.Content = comp.Choices[0].Message.Content
	}
	return out, nil
}

// hint says what to check after a refusal that every item would get.
func (c *caller) hint(err error) string {
	var se *chat.StatusError
	if !errors.As(err, &se) {
		return ""
	}
	switch se.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Sprintf(" (check the API key in $%s, or set api_key_env)", c.cfg.APIKeyEnv)
	case http.StatusNotFound:
		base := c.cfg.BaseURL
		if base == "" {
			base = chat.DefaultBaseURL
		}
		return fmt.Sprintf(" (check that model %q is served at base_url %q)", c.cfg.Model, base)
	}
	return ""
}
