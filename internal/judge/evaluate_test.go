package judge_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/chat"
	"github.com/evalgate/evalgate/internal/judge/live"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

const (
	model = "judge-model-2024-08-06"
	// valid is a reply that keeps every seed 001 rule.
	valid = `{"accuracy_score": 2, "faithfulness_score": 1, "rationale": "Correct; one claim is not in the context."}`
)

// waits records the pauses between attempts instead of sleeping them.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(_ context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d = append(w.d, d)
	return nil
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

// newJudge returns a Judge talking to srv with a fresh cache and no real waits; edit
// changes the config first.
func newJudge(t *testing.T, srv *chattest.Server, edit func(*judge.Config), opts ...judge.Option) (*judge.Judge, *waits) {
	t.Helper()
	cfg := judge.Config{Model: model, BaseURL: srv.BaseURL(), CacheDir: t.TempDir(), MaxRetries: 2}
	if edit != nil {
		edit(&cfg)
	}
	w := &waits{}
	opts = append([]judge.Option{
		judge.WithGetenv(func(string) string { return "" }),
		live.Calls(chat.WithSleep(w.sleep), chat.WithBackoff(func(int) time.Duration { return time.Millisecond })),
	}, opts...)
	j, err := judge.New(cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return j, w
}

func req(id string) judge.Request {
	return judge.Request{ID: id, Task: "Capital of France?", ReferenceAnswer: "Paris", CandidateAnswer: "Paris " + id}
}

func score(v float64) *float64 { return &v }

func TestEvaluateOutcomes(t *testing.T) {
	t.Parallel()
	ok := chattest.Reply{Content: valid, Fingerprint: "fp_9", PromptTokens: 300, CompletionTokens: 20}
	bad := func(content string) chattest.Reply {
		return chattest.Reply{Content: content, PromptTokens: 300, CompletionTokens: 20}
	}
	good := map[string]*float64{"accuracy_score": score(2), "faithfulness_score": score(1)}
	null := map[string]*float64{"accuracy_score": nil, "faithfulness_score": nil}
	const rationale = "Correct; one claim is not in the context."
	tests := []struct {
		name      string
		replies   []chattest.Reply
		want      judge.Judgment
		wantWaits []time.Duration
	}{
		{
			name:    "valid verdict",
			replies: []chattest.Reply{ok},
			want: judge.Judgment{Scores: good, Rationale: rationale, Model: model, ModelVersion: "fp_9",
				Calls: 1, Usage: judge.Usage{PromptTokens: 300, CompletionTokens: 20}},
		},
		{
			// Seed 001: retry once with identical inputs; tokens of both calls count.
			name:    "malformed then valid",
			replies: []chattest.Reply{bad(`{"accuracy_score": 2,`), ok},
			want: judge.Judgment{Scores: good, Rationale: rationale, Model: model, ModelVersion: "fp_9",
				Calls: 2, Usage: judge.Usage{PromptTokens: 600, CompletionTokens: 40}},
		},
		{
			name:    "malformed twice",
			replies: []chattest.Reply{bad("Sure! Here is my evaluation."), bad("```json\n{}\n```")},
			want: judge.Judgment{Scores: null, EvaluatorError: judge.ErrorParse, ErrorDetail: "not a JSON object: invalid character '`' looking for beginning of value",
				Model: model, Calls: 2, Usage: judge.Usage{PromptTokens: 600, CompletionTokens: 40}},
		},
		{
			name:    "out of range twice",
			replies: []chattest.Reply{bad(`{"accuracy_score": 5, "faithfulness_score": 1, "rationale": "x"}`)},
			want: judge.Judgment{Scores: null, EvaluatorError: judge.ErrorParse, ErrorDetail: `key "accuracy_score" is 5; want an integer in 0..2`,
				Model: model, Calls: 2, Usage: judge.Usage{PromptTokens: 600, CompletionTokens: 40}},
		},
		{
			name:    "missing key twice",
			replies: []chattest.Reply{bad(`{"accuracy_score": 1, "rationale": "x"}`)},
			want: judge.Judgment{Scores: null, EvaluatorError: judge.ErrorParse, ErrorDetail: `missing key "faithfulness_score"`,
				Model: model, Calls: 2, Usage: judge.Usage{PromptTokens: 600, CompletionTokens: 40}},
		},
		{
			name:    "rationale over 80 words twice",
			replies: []chattest.Reply{bad(`{"accuracy_score": 1, "faithfulness_score": 1, "rationale": "` + strings.Repeat("so ", 81) + `"}`)},
			want: judge.Judgment{Scores: null, EvaluatorError: judge.ErrorParse, ErrorDetail: `key "rationale" has 81 words; at most 80 allowed`,
				Model: model, Calls: 2, Usage: judge.Usage{PromptTokens: 600, CompletionTokens: 40}},
		},
		{
			name:      "429 with Retry-After then OK",
			replies:   []chattest.Reply{{Status: 429, Header: map[string]string{"Retry-After": "3"}}, ok},
			want:      judge.Judgment{Scores: good, Rationale: rationale, Model: model, ModelVersion: "fp_9", Calls: 2, Usage: judge.Usage{PromptTokens: 300, CompletionTokens: 20}},
			wantWaits: []time.Duration{3 * time.Second},
		},
		{
			name:      "500 then success",
			replies:   []chattest.Reply{{Status: 500}, ok},
			want:      judge.Judgment{Scores: good, Rationale: rationale, Model: model, ModelVersion: "fp_9", Calls: 2, Usage: judge.Usage{PromptTokens: 300, CompletionTokens: 20}},
			wantWaits: []time.Duration{time.Millisecond},
		},
		{
			// MaxRetries 2: three calls, then the item is an api_error, not a run failure.
			name:      "503 until the retries run out",
			replies:   []chattest.Reply{{Status: 503}},
			want:      judge.Judgment{Scores: null, EvaluatorError: judge.ErrorAPI, ErrorDetail: `chat completions: HTTP 503 Service Unavailable: {"error":{"message":"Service Unavailable","type":"fake"}}`, Calls: 3},
			wantWaits: []time.Duration{time.Millisecond, time.Millisecond},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := chattest.New(t, "/v1", chattest.Sequence(tt.replies...))
			j, w := newJudge(t, srv, nil)
			got, st, err := j.Evaluate(context.Background(), []judge.Request{req("q1")})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]judge.Judgment{tt.want}, got); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
			if srv.Calls() != tt.want.Calls || st.Calls != tt.want.Calls {
				t.Errorf("server calls %d, Stats.Calls %d; want %d", srv.Calls(), st.Calls, tt.want.Calls)
			}
			if diff := cmp.Diff(tt.wantWaits, w.all()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			// The parse retry resends the identical request.
			if reqs := srv.Requests(); len(reqs) == 2 && !cmp.Equal(reqs[0], reqs[1], cmpopts.IgnoreFields(chattest.Request{}, "Header")) {
				t.Errorf("retry differs from the first request:\n%s", cmp.Diff(reqs[0], reqs[1]))
			}
		})
	}
}

func TestEvaluateSendsSeedDefaultsAndExactPrompt(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid}))
	j, _ := newJudge(t, srv, nil, judge.WithGetenv(func(k string) string {
		return map[string]string{"OPENAI_API_KEY": "sk-test"}[k]
	}))
	r := judge.Request{ID: "q1", Task: "2+2?", ReferenceAnswer: "4", ProvidedContext: "arithmetic", CandidateAnswer: "4"}
	if _, _, err := j.Evaluate(context.Background(), []judge.Request{r}); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	// Seed 001 §4.1: temperature 0, top_p 1, max_tokens 1024, seed 42.
	temp, topP, maxTok, seed := 0.0, 1.0, int64(1024), int64(42)
	want := chattest.Request{
		Path: "/v1/chat/completions", Model: model,
		Temperature: &temp, TopP: &topP, MaxTokens: &maxTok, Seed: &seed,
		Messages: []chattest.Message{
			{Role: "system", Content: judge.SandboxNotice},
			{Role: "user", Content: strings.NewReplacer(
				"{{task}}", "<task>2+2?</task>",
				"{{reference_answer}}", "<reference_answer>4</reference_answer>",
				"{{provided_context}}", "<provided_context>arithmetic</provided_context>",
				"{{candidate_answer}}", "<candidate_answer>4</candidate_answer>",
			).Replace(seed001Verbatim)},
		},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(chattest.Request{}, "Header")); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if auth := got.Header.Get("Authorization"); auth != "Bearer sk-test" {
		t.Errorf("Authorization = %q; want the key from OPENAI_API_KEY", auth)
	}
}

func TestEvaluateBaseURLWithoutVersion(t *testing.T) {
	t.Parallel()
	// Some servers mount the API at the root: base URL http://host, path /chat/completions.
	srv := chattest.New(t, "", chattest.Always(chattest.Reply{Content: valid}))
	j, _ := newJudge(t, srv, nil)
	if _, _, err := j.Evaluate(context.Background(), []judge.Request{req("q1")}); err != nil {
		t.Fatal(err)
	}
	if p := srv.Requests()[0].Path; p != "/chat/completions" {
		t.Errorf("path %q; want /chat/completions", p)
	}
}

func TestEvaluateBaseURLFromEnvironment(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid}))
	env := map[string]string{"OPENAI_BASE_URL": srv.BaseURL(), "JUDGE_KEY": "sk-other"}
	j, err := judge.New(judge.Config{Model: model, CacheDir: t.TempDir(), APIKeyEnv: "JUDGE_KEY"},
		judge.WithGetenv(func(k string) string { return env[k] }), live.Calls())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := j.Evaluate(context.Background(), []judge.Request{req("q1")}); err != nil {
		t.Fatal(err)
	}
	if auth := srv.Requests()[0].Header.Get("Authorization"); auth != "Bearer sk-other" {
		t.Errorf("Authorization = %q; want the key from api_key_env JUDGE_KEY", auth)
	}
}

func TestEvaluateTimeout(t *testing.T) {
	t.Parallel()
	// The server would answer after 90 s; each call may take 50 ms, with MaxRetries 1.
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid, Delay: 90 * time.Second}))
	j, _ := newJudge(t, srv, func(c *judge.Config) { c.Timeout = 50 * time.Millisecond; c.MaxRetries = 1 })
	start := time.Now()
	got, st, err := j.Evaluate(context.Background(), []judge.Request{req("q1")})
	if err != nil {
		t.Fatal(err)
	}
	want := judge.Judgment{
		Scores:         map[string]*float64{"accuracy_score": nil, "faithfulness_score": nil},
		EvaluatorError: judge.ErrorTimeout, ErrorDetail: "chat completions: no reply within 50ms", Calls: 2,
	}
	if diff := cmp.Diff([]judge.Judgment{want}, got); diff != "" {
		t.Errorf("verdict (-want +got):\n%s", diff)
	}
	if st.Errors != 1 || st.Calls != 2 {
		t.Errorf("stats %+v; want 1 error, 2 calls", st)
	}
	// A minute is far below the server's 90 s yet roomy for two 50 ms attempts on any
	// loaded machine.
	if el := time.Since(start); el > time.Minute {
		t.Errorf("took %s; the timeout did not cut the call short", el)
	}
	// A timeout is not cached: the next run asks again.
	if _, st, _ := j.Evaluate(context.Background(), []judge.Request{req("q1")}); st.CacheHits != 0 {
		t.Errorf("a timed-out verdict was cached")
	}
}

func TestEvaluateCache(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid, PromptTokens: 100, CompletionTokens: 10}))
	dir := t.TempDir()
	reqs := []judge.Request{req("a"), req("b"), req("c")}
	j, _ := newJudge(t, srv, func(c *judge.Config) { c.CacheDir = dir })
	first, st1, err := j.Evaluate(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	// A second Judge over the same directory: every verdict from disk, 0 calls.
	j2, _ := newJudge(t, srv, func(c *judge.Config) { c.CacheDir = dir })
	second, st2, err := j2.Evaluate(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Calls() != 3 {
		t.Errorf("server calls %d after both runs; want 3 (the first run only)", srv.Calls())
	}
	wantSt1 := judge.Stats{Requests: 3, Calls: 3, PromptTokens: 300, CompletionTokens: 30}
	// The second run pays nothing; its hits carry the tokens their entries recorded
	// (the first run's 300 prompt and 30 completion tokens), to price them as if paid.
	wantSt2 := judge.Stats{Requests: 3, CacheHits: 3, HitUsage: judge.Usage{PromptTokens: 300, CompletionTokens: 30}}
	if diff := cmp.Diff([]judge.Stats{wantSt1, wantSt2}, []judge.Stats{st1, st2}); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	for i := range second {
		if !second[i].Cached || first[i].Cached {
			t.Errorf("item %d: Cached %v then %v; want false then true", i, first[i].Cached, second[i].Cached)
		}
		second[i].Cached = false
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("cached verdicts differ from the live ones (-live +cached):\n%s", diff)
	}
	// Each entry is a JSON file named by its key, under a two-letter directory.
	key := j.Key(reqs[0])
	if _, err := os.Stat(filepath.Join(dir, key[:2], key+".json")); err != nil {
		t.Errorf("cache file for item a: %v", err)
	}
	// Changing the candidate answer is a different key: judged again.
	changed := req("a")
	changed.CandidateAnswer = "Lyon"
	if _, st, _ := j2.Evaluate(context.Background(), []judge.Request{changed}); st.Calls != 1 {
		t.Errorf("changed answer: %d calls; want 1", st.Calls)
	}
}

func TestEvaluateCacheKeyInputs(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid}))
	j, _ := newJudge(t, srv, nil)
	base := j.Key(req("a"))
	if j.Key(judge.Request{ID: "other id", Task: req("a").Task, ReferenceAnswer: "Paris", CandidateAnswer: "Paris a"}) != base {
		t.Error("the item id changed the key; identical content must hit the cache")
	}
	variants := map[string]func(*judge.Config, *judge.Request){
		"model":       func(c *judge.Config, _ *judge.Request) { c.Model = "judge-model-2024-11-20" },
		"template":    func(c *judge.Config, _ *judge.Request) { c.Template = judge.TemplateRubric },
		"temperature": func(c *judge.Config, _ *judge.Request) { c.Temperature = 0.2 },
		"seed":        func(c *judge.Config, _ *judge.Request) { s := int64(7); c.Seed = &s },
		"max_tokens":  func(c *judge.Config, _ *judge.Request) { c.MaxTokens = 512 },
		"task":        func(_ *judge.Config, r *judge.Request) { r.Task += "?" },
		"reference":   func(_ *judge.Config, r *judge.Request) { r.ReferenceAnswer = "Paris, France" },
		"context":     func(_ *judge.Config, r *judge.Request) { r.ProvidedContext = "Geography" },
		"candidate":   func(_ *judge.Config, r *judge.Request) { r.CandidateAnswer = "Lyon" },
	}
	for name, edit := range variants {
		r := req("a")
		jv, _ := newJudge(t, srv, func(c *judge.Config) { edit(c, &judge.Request{}) })
		edit(&judge.Config{}, &r)
		if jv.Key(r) == base {
			t.Errorf("changing the %s kept the cache key", name)
		}
	}
}

func TestEvaluateNoCache(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid}))
	dir := t.TempDir()
	j, _ := newJudge(t, srv, func(c *judge.Config) { c.CacheDir = dir; c.NoCache = true })
	for range 2 {
		if _, _, err := j.Evaluate(context.Background(), []judge.Request{req("a")}); err != nil {
			t.Fatal(err)
		}
	}
	if srv.Calls() != 2 {
		t.Errorf("%d calls over two runs with no_cache; want 2", srv.Calls())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("no_cache wrote %d entries", len(entries))
	}
}

func TestEvaluateReplay(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid}))
	dir := t.TempDir()
	rec, _ := newJudge(t, srv, func(c *judge.Config) { c.CacheDir = dir })
	if _, _, err := rec.Evaluate(context.Background(), []judge.Request{req("a")}); err != nil {
		t.Fatal(err)
	}
	replay, _ := newJudge(t, srv, func(c *judge.Config) { c.CacheDir = dir; c.Replay = true; c.BaseURL = "http://127.0.0.1:1" })
	got, st, err := replay.Evaluate(context.Background(), []judge.Request{req("a")})
	if err != nil || !got[0].Cached || st.Calls != 0 {
		t.Fatalf("replay of a recorded item: cached %v, %d calls, err %v; want a cache hit", got[0].Cached, st.Calls, err)
	}
	_, st, err = replay.Evaluate(context.Background(), []judge.Request{req("a"), req("new-item")})
	if err == nil || !strings.Contains(err.Error(), `judge replay: no cached verdict for item "new-item"`) {
		t.Errorf("replay miss: err = %v; want one naming item new-item", err)
	}
	if srv.Calls() != 1 || st.Calls != 0 {
		t.Errorf("replay made calls: server %d (want 1, the recording), stats %d (want 0)", srv.Calls(), st.Calls)
	}
}

func TestEvaluateBudget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		edit    func(*judge.Config)
		wantErr string
	}{
		{
			// 5 items, 3 calls allowed: the 4th call is refused.
			name:    "calls",
			edit:    func(c *judge.Config) { c.MaxCalls = 3; c.Concurrency = 1 },
			wantErr: "judge budget exceeded: 4 calls > max_calls 3",
		},
		{
			// Each call spends 100+10 tokens; the 3rd brings the total to 330 > 250.
			name:    "tokens",
			edit:    func(c *judge.Config) { c.MaxTotalTokens = 250; c.Concurrency = 1 },
			wantErr: "judge budget exceeded: 330 tokens > max_total_tokens 250",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid, PromptTokens: 100, CompletionTokens: 10}))
			dir := t.TempDir()
			j, _ := newJudge(t, srv, func(c *judge.Config) { tt.edit(c); c.CacheDir = dir })
			reqs := []judge.Request{req("a"), req("b"), req("c"), req("d"), req("e")}
			_, _, err := j.Evaluate(context.Background(), reqs)
			if !errors.Is(err, judge.ErrBudgetExceeded) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v; want %q", err, tt.wantErr)
			}
			if srv.Calls() != 3 {
				t.Errorf("server calls %d; want 3, then a stop", srv.Calls())
			}
			// Every call made is kept: the token overrun's verdict too, paid for.
			if files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json")); len(files) != 3 {
				t.Errorf("%d verdicts cached; want the 3 calls' verdicts", len(files))
			}
		})
	}
}

func TestEvaluateFatalErrors(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Status: 401}))
	j, _ := newJudge(t, srv, func(c *judge.Config) { c.Concurrency = 1 })
	_, _, err := j.Evaluate(context.Background(), []judge.Request{req("a"), req("b")})
	if err == nil || !strings.Contains(err.Error(), `judge: item "a": chat completions: HTTP 401`) ||
		!strings.Contains(err.Error(), "check the API key in $OPENAI_API_KEY") {
		t.Errorf("err = %v; want the 401 to stop the run", err)
	}
	if srv.Calls() != 1 {
		t.Errorf("%d calls; a bad key must not be retried or tried on every item", srv.Calls())
	}
}

func TestEvaluateOrderAndDuplicates(t *testing.T) {
	t.Parallel()
	// The fake answers each item with a score taken from its answer, after a delay
	// that makes later items finish first, so order comes from the code, not timing.
	srv := chattest.New(t, "/v1", func(_ int, r chattest.Request) chattest.Reply {
		var n int
		p := r.Prompt()
		fmt.Sscanf(p[strings.Index(p, "<candidate_answer>")+len("<candidate_answer>"):], "answer %d", &n)
		return chattest.Reply{
			Content: fmt.Sprintf(`{"accuracy_score": %d, "faithfulness_score": 2, "rationale": "r"}`, n%3),
			Delay:   time.Duration(20-n) * time.Millisecond,
		}
	})
	j, _ := newJudge(t, srv, func(c *judge.Config) { c.Concurrency = 4 })
	var reqs []judge.Request
	for i := range 12 {
		reqs = append(reqs, judge.Request{ID: fmt.Sprint(i), CandidateAnswer: fmt.Sprintf("answer %d", i)})
	}
	// Two more requests with the same content as items 0 and 5.
	reqs = append(reqs, judge.Request{ID: "dup0", CandidateAnswer: "answer 0"}, judge.Request{ID: "dup5", CandidateAnswer: "answer 5"})
	got, st, err := j.Evaluate(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range got {
		n := i
		if i >= 12 {
			n = []int{0, 5}[i-12]
		}
		if a := v.Scores["accuracy_score"]; a == nil || *a != float64(n%3) {
			t.Errorf("verdict %d has accuracy %v; want %d", i, a, n%3)
		}
	}
	if srv.Calls() != 12 || st.Calls != 12 || st.CacheHits != 2 {
		t.Errorf("server calls %d, stats %+v; want 12 calls and the 2 duplicates as cache hits", srv.Calls(), st)
	}
	if !got[12].Cached || got[0].Cached {
		t.Errorf("duplicate Cached=%v, original Cached=%v; want true, false", got[12].Cached, got[0].Cached)
	}
}

func TestEvaluateProgress(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid}))
	var buf strings.Builder
	var mu sync.Mutex
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return buf.Write(p) })
	j, _ := newJudge(t, srv, nil, live.ProgressAs(w, func() bool { return false }, ""))
	if _, _, err := j.Evaluate(context.Background(), []judge.Request{req("a"), req("b")}); err != nil {
		t.Fatal(err)
	}
	// Two items: a line at 1/2 and the final 2/2.
	if diff := cmp.Diff("judge: 1/2 (50%)\njudge: 2/2 (100%)\n", buf.String()); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestMetadata(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid, Model: "judge-model-2024-08-06-snap", Fingerprint: "fp_1"}))
	j, _ := newJudge(t, srv, nil)
	v, _, err := j.Evaluate(context.Background(), []judge.Request{req("a")})
	if err != nil {
		t.Fatal(err)
	}
	want := judge.Metadata{
		EvaluatorModelID:      model,
		EvaluatorModelVersion: "judge-model-2024-08-06-snap@fp_1",
		TemplateID:            "accuracy-faithfulness",
		TemplateHash:          judge.AccuracyFaithfulness().Hash(),
		Params:                judge.Params{Temperature: 0, TopP: 1, MaxTokens: 1024, Seed: 42},
	}
	if diff := cmp.Diff(want, j.Metadata(v)); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
}
