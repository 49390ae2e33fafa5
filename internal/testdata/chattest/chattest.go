// Package chattest is a fake OpenAI-compatible chat completions server for tests. It
// records every request, answers with what the test's handler says, and fails the test
// on any surprise (another path or method, a body that is not a chat request).
package chattest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Request is what the fake received, decoded.
type Request struct {
	Path        string
	Header      http.Header
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature"`
	TopP        *float64  `json:"top_p"`
	MaxTokens   *int64    `json:"max_tokens"`
	Seed        *int64    `json:"seed"`
}

// Message is one chat message of a Request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Prompt returns the content of the request's user message.
func (r Request) Prompt() string { return r.content("user") }

// System returns the content of the request's system message.
func (r Request) System() string { return r.content("system") }

func (r Request) content(role string) string {
	for _, m := range r.Messages {
		if m.Role == role {
			return m.Content
		}
	}
	return ""
}

// Reply is what the fake sends back. The zero value is a 200 with empty content.
type Reply struct {
	// Status defaults to 200.
	Status int
	// Header is added to the reply (e.g. Retry-After).
	Header map[string]string
	// Content is the assistant message of a 200 reply.
	Content string
	// Model defaults to the requested model; Fingerprint is system_fingerprint.
	Model, Fingerprint string
	// PromptTokens and CompletionTokens are reported as usage; CachedTokens, when set,
	// as usage.prompt_tokens_details.cached_tokens.
	PromptTokens, CompletionTokens, CachedTokens int
	// Delay holds the reply back; a client that gives up first ends the wait.
	Delay time.Duration
	// Body, when set, is sent as is instead of a chat completion.
	Body string
}

// Handler decides the reply to the call-th request (1-based).
type Handler func(call int, req Request) Reply

// Server is a running fake.
type Server struct {
	*httptest.Server
	t        testing.TB
	prefix   string
	handler  Handler
	mu       sync.Mutex
	requests []Request
}

// New starts a fake serving POST {prefix}/chat/completions, where prefix is "/v1" or
// "" (a base URL with or without the version path). It is closed when the test ends.
func New(t testing.TB, prefix string, h Handler) *Server {
	t.Helper()
	s := &Server{t: t, prefix: prefix, handler: h}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the base URL a client should use.
func (s *Server) BaseURL() string { return s.URL + s.prefix }

// Calls is the number of requests received so far.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// Requests returns a copy of the requests received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != s.prefix+"/chat/completions" {
		s.t.Errorf("chattest: unexpected %s %s; want POST %s/chat/completions", r.Method, r.URL.Path, s.prefix)
		http.NotFound(w, r)
		return
	}
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.t.Errorf("chattest: request body is not a chat completion request: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Path, req.Header = r.URL.Path, r.Header.Clone()
	s.mu.Lock()
	s.requests = append(s.requests, req)
	call := len(s.requests)
	s.mu.Unlock()

	rep := s.handler(call, req)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	switch {
	case rep.Body != "":
		fmt.Fprint(w, rep.Body)
	case status >= 400:
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"fake"}}`, http.StatusText(status))
	default:
		_ = json.NewEncoder(w).Encode(completion(call, req, rep))
	}
}

func completion(call int, req Request, rep Reply) map[string]any {
	model := rep.Model
	if model == "" {
		model = req.Model
	}
	return map[string]any{
		"id":                 fmt.Sprintf("chatcmpl-%d", call),
		"object":             "chat.completion",
		"created":            1700000000,
		"model":              model,
		"system_fingerprint": rep.Fingerprint,
		"choices": []any{map[string]any{
			"index":         0,
			"finish_reason": "stop",
			"message":       map[string]any{"role": "assistant", "content": rep.Content},
		}},
		"usage": usage(rep),
	}
}

func usage(rep Reply) map[string]any {
	u := map[string]any{
		"prompt_tokens":     rep.PromptTokens,
		"completion_tokens": rep.CompletionTokens,
		"total_tokens":      rep.PromptTokens + rep.CompletionTokens,
	}
	if rep.CachedTokens > 0 {
		u["prompt_tokens_details"] = map[string]any{"cached_tokens": rep.CachedTokens}
	}
	return u
}

// Always returns a Handler that sends rep to every request.
func Always(rep Reply) Handler { return func(int, Request) Reply { return rep } }

// Sequence returns a Handler that sends reps in order, then repeats the last one.
func Sequence(reps ...Reply) Handler {
	return func(call int, _ Request) Reply { return reps[min(call, len(reps))-1] }
}
