package runner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/evalgate/evalgate/internal/judge/chat"
	"github.com/evalgate/evalgate/internal/runner"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

func newOpenAI(t *testing.T, srv *chattest.Server, edit func(*runner.OpenAIConfig)) *runner.OpenAI {
	t.Helper()
	cfg := runner.OpenAIConfig{
		Model:   "sut-model-2024-05-13",
		BaseURL: srv.BaseURL(),
		Prompt:  "Q: {{prompt}} (answer in {{meta.lang}})",
		System:  "You are a tutor for item {{id}}.",
		Timeout: 2 * time.Second,
	}
	if edit != nil {
		edit(&cfg)
	}
	noWait := chat.WithSleep(func(context.Context, time.Duration) error { return nil })
	o, err := runner.NewOpenAI(cfg, func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-sut"}[k] }, 4, noWait)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

var tutorItem = runner.Item{ID: "t1", Fields: map[string]any{
	"id": "t1", "input": "What is 7×8?", "meta": map[string]any{"lang": "English"},
}}

func i64(v int64) *int64     { return &v }
func f64(v float64) *float64 { return &v }
func TestOpenAIRun(t *testing.T) {
	t.Parallel()
	ok := chattest.Reply{
		Content: "56", Model: "sut-model-2024-05-13-snap", PromptTokens: 31, CompletionTokens: 2,
		Header: map[string]string{"openai-processing-ms": "87"},
	}
	tests := []struct {
		name      string
		replies   []chattest.Reply
		want      runner.Result
		wantCalls int
	}{
		{
			name:      "answer with usage and model time",
			replies:   []chattest.Reply{ok},
			want:      runner.Result{ID: "t1", Output: "56", Model: "sut-model-2024-05-13-snap", InputTokens: i64(31), OutputTokens: i64(2), LatencyModelMs: f64(87)},
			wantCalls: 1,
		},
		{
			name:      "500 then success",
			replies:   []chattest.Reply{{Status: 500}, ok},
			want:      runner.Result{ID: "t1", Output: "56", Model: "sut-model-2024-05-13-snap", InputTokens: i64(31), OutputTokens: i64(2), LatencyModelMs: f64(87)},
			wantCalls: 2,
		},
		{
			name:      "no usage, no processing header: nulls",
			replies:   []chattest.Reply{{Body: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"56"}}]}`}},
			want:      runner.Result{ID: "t1", Output: "56", Model: "m"},
			wantCalls: 1,
		},
		{
			// The results loader refuses a latency past 1e12 ms or not finite: the run
			// leaves the header's value out rather than write a file check refuses.
			name:      "an infinite processing time is left out",
			replies:   []chattest.Reply{{Content: "56", Model: "m", Header: map[string]string{"openai-processing-ms": "Inf"}}},
			want:      runner.Result{ID: "t1", Output: "56", Model: "m", InputTokens: i64(0), OutputTokens: i64(0)},
			wantCalls: 1,
		},
		{
			name:      "a processing time past 1e12 ms is left out",
			replies:   []chattest.Reply{{Content: "56", Model: "m", Header: map[string]string{"openai-processing-ms": "1e13"}}},
			want:      runner.Result{ID: "t1", Output: "56", Model: "m", InputTokens: i64(0), OutputTokens: i64(0)},
			wantCalls: 1,
		},
		{
			// A 400 is about this request (say, too long); it fails the item, not the run.
			name:      "400 is an item error",
			replies:   []chattest.Reply{{Status: 400}},
			want:      runner.Result{ID: "t1", Error: `chat completions: HTTP 400 Bad Request: {"error":{"message":"Bad Request","type":"fake"}}`},
			wantCalls: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := chattest.New(t, "/v1", chattest.Sequence(tt.replies...))
			got, err := newOpenAI(t, srv, nil).Run(context.Background(), tutorItem)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, ignoreLatency); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if got.LatencyE2EMs <= 0 {
				t.Errorf("latency_e2e_ms %v; want it measured", got.LatencyE2EMs)
			}
			if srv.Calls() != tt.wantCalls {
				t.Errorf("%d calls; want %d", srv.Calls(), tt.wantCalls)
			}
		})
	}
}

func TestOpenAIRequest(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "", chattest.Always(chattest.Reply{Content: "56"}))
	if _, err := newOpenAI(t, srv, nil).Run(context.Background(), tutorItem); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	// {{prompt}} falls back to the item's input; dotted paths reach nested fields;
	// seed 001 §4.1's generation defaults are sent.
	temp, topP, maxTok, seed := 0.0, 1.0, int64(1024), int64(42)
	want := chattest.Request{
		Path: "/chat/completions", Model: "sut-model-2024-05-13",
		Temperature: &temp, TopP: &topP, MaxTokens: &maxTok, Seed: &seed,
		Messages: []chattest.Message{
			{Role: "system", Content: "You are a tutor for item t1."},
			{Role: "user", Content: "Q: What is 7×8? (answer in English)"},
		},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(chattest.Request{}, "Header")); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if a := got.Header.Get("Authorization"); a != "Bearer sk-sut" {
		t.Errorf("Authorization %q; want the OPENAI_API_KEY value", a)
	}
}

func TestOpenAITimeout(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: "late", Delay: 5 * time.Second}))
	// The server answers only after 5 s, so the 1 s timeout always ends the attempt,
	// however loaded the machine. (A loaded machine may end it even before the server
	// counts the request: at most one call, never a retry.)
	o := newOpenAI(t, srv, func(c *runner.OpenAIConfig) { c.Timeout = time.Second; c.MaxRetries = -1 })
	got, err := o.Run(context.Background(), tutorItem)
	if err != nil {
		t.Fatal(err)
	}
	if !got.TimedOut || got.Output != "" || got.LatencyE2EMs < 1000 {
		t.Errorf("result %+v; want timed_out with at least the 1 s timeout as latency", got)
	}
	if srv.Calls() > 1 {
		t.Errorf("%d calls; max_retries -1 means a single attempt", srv.Calls())
	}
}

func TestOpenAIFatalAndConfig(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Status: 401}))
	if _, err := newOpenAI(t, srv, nil).Run(context.Background(), tutorItem); err == nil || !strings.Contains(err.Error(), "HTTP 401") {
		t.Errorf("401: err = %v; want a run-ending error", err)
	}
	if _, err := runner.NewOpenAI(runner.OpenAIConfig{Model: "gpt-4o-latest"}, nil, 1); err == nil || !strings.Contains(err.Error(), "floating alias") {
		t.Errorf("floating alias: err = %v; want it refused", err)
	}
	if _, err := runner.NewOpenAI(runner.OpenAIConfig{Model: "gpt-4o-latest", AllowFloatingAlias: true}, nil, 1); err != nil {
		t.Errorf("allowed floating alias: %v", err)
	}
}

func TestRunChecksItemsFirst(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: "56"}))
	o := newOpenAI(t, srv, nil)
	items := []runner.Item{tutorItem, {ID: "no-lang", Fields: map[string]any{"prompt": "2+2?"}}}
	var out lineRecorder
	_, err := runner.Run(context.Background(), o, items, &out, runner.Options{})
	if err == nil || !strings.Contains(err.Error(), `item "no-lang" has no field "meta.lang"`) {
		t.Errorf("err = %v; want the missing field reported", err)
	}
	// Nothing was sent or written: the check comes before the first call.
	if srv.Calls() != 0 || len(out.lines()) != 0 {
		t.Errorf("%d calls, %d lines; want none", srv.Calls(), len(out.lines()))
	}
}

func TestPromptCheck(t *testing.T) {
	t.Parallel()
	p, err := runner.ParsePrompt("{{prompt}} / {{expected_contains.english}}")
	if err != nil {
		t.Fatal(err)
	}
	items := []runner.Item{
		{ID: "ok", Fields: map[string]any{"prompt": "p", "expected_contains": map[string]any{"english": []any{"a", "b"}}}},
		{ID: "no-nested", Fields: map[string]any{"prompt": "p"}},
		{ID: "nothing", Fields: map[string]any{}},
	}
	err = p.Check(items)
	want := `runner: item "no-nested" has no field "expected_contains.english" for the prompt template; ` +
		`item "nothing" has no field "prompt", "expected_contains.english" for the prompt template`
	if err == nil || err.Error() != want {
		t.Errorf("Check error:\n%v\nwant:\n%s", err, want)
	}
	// Non-string values go in as JSON.
	got, err := p.Render(items[0])
	if err != nil || got != `p / ["a","b"]` {
		t.Errorf("Render = %q, %v; want the list as JSON", got, err)
	}
	if _, err := runner.ParsePrompt("{{ }}"); err == nil {
		t.Error("an empty placeholder was accepted")
	}
}
