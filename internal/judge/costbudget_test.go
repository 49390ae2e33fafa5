package judge_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// price is the budget tests' model price: $0.001 a token, in or out.
var price = pricing.Price{Input: 1000, Output: 1000}

// costRequests returns n requests that render to prompts of one length, and the worst
// case of a call judging one: its prompt's bytes as tokens plus 2 messages × 16 tokens
// of overhead in, and max_tokens 10 out, at $0.001 a token.
func costRequests(t *testing.T, srv *chattest.Server, n int) ([]judge.Request, float64) {
	t.Helper()
	reqs := make([]judge.Request, n)
	for i := range reqs {
		reqs[i] = judge.Request{ID: fmt.Sprintf("q-%d", i), Task: "t", CandidateAnswer: fmt.Sprintf("answer %d", i)}
	}
	j0, _ := newJudge(t, srv, nil)
	return reqs, float64(len(judge.SandboxNotice+j0.Template().Render(reqs[0]))+32+10) / 1000
}

// TestCostBudgetStopsCalls: with max_cost_usd, a call starts only while the budget
// covers its worst case; the first refusal ends the run with ErrBudgetExceeded, and the
// verdicts made by then are cached.
func TestCostBudgetStopsCalls(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid, PromptTokens: 10, CompletionTokens: 5}))
	reqs, worst := costRequests(t, srv, 4)
	// Each call costs (10 + 5) × $0.001 = $0.015. A budget of 0.015 + worst + 0.005
	// lets the 1st call start (worst ≤ budget) and the 2nd (0.015 + worst), and
	// refuses the 3rd (0.030 + worst > budget): two calls, one at a time.
	b, err := pricing.NewBudget(0.015 + worst + 0.005)
	if err != nil {
		t.Fatal(err)
	}
	j, _ := newJudge(t, srv, func(c *judge.Config) { c.Concurrency, c.MaxTokens = 1, 10 }, judge.WithCostBudget(b, price))
	verdicts, st, err := j.Evaluate(context.Background(), reqs)
	if !errors.Is(err, judge.ErrBudgetExceeded) || !errors.Is(err, pricing.ErrBudget) {
		t.Fatalf("err = %v; want the budget exceeded", err)
	}
	if srv.Calls() != 2 || st.Calls != 2 {
		t.Errorf("%d calls (stats %d); want 2: no call starts after the budget", srv.Calls(), st.Calls)
	}
	if verdicts[0].Scores == nil || verdicts[1].Scores == nil || verdicts[2].Scores != nil {
		t.Errorf("verdicts %+v; want the first two made, the others not", verdicts)
	}
	if s := b.Spent(); s < 0.0299 || s > 0.0301 {
		t.Errorf("spent %v; want 2 × 0.015 = 0.03", s)
	}
}

// The calls in flight when the budget refuses one finish and are kept: their verdicts
// are returned and cached (paid for, they are never bought twice), and no call starts
// after the refusal. Four workers; the budget covers three worst cases and not a
// fourth, so three calls start at once and the fourth worker is refused while they
// are at the server, which answers only when all three have arrived.
func TestCostBudgetKeepsTheCallsInFlight(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	arrived, all := 0, make(chan struct{})
	inTokens := 0 // the worst case's input tokens, set below
	srv := chattest.New(t, "/v1", func(_ int, _ chattest.Request) chattest.Reply {
		mu.Lock()
		if arrived++; arrived == 3 {
			close(all)
		}
		in := inTokens
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(5 * time.Second):
		}
		// Each call costs its worst case, so the budget a finished call settles frees
		// nothing: a fourth worker scheduled late (a loaded machine) is refused as
		// surely as one that asks while the three are at the server. With 1 token in
		// and out, the three settled at $0.002 each and a late fourth fitted (4 calls).
		return chattest.Reply{Content: valid, PromptTokens: in, CompletionTokens: 10}
	})
	// 3.5 worst cases: three fit in flight, a fourth does not.
	reqs, worst := costRequests(t, srv, 8)
	mu.Lock()
	inTokens = int(worst*1000+0.5) - 10
	mu.Unlock()
	b, err := pricing.NewBudget(3.5 * worst)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	j, _ := newJudge(t, srv, func(c *judge.Config) { c.Concurrency, c.MaxTokens, c.CacheDir = 4, 10, dir }, judge.WithCostBudget(b, price))
	verdicts, st, err := j.Evaluate(context.Background(), reqs)
	if !errors.Is(err, judge.ErrBudgetExceeded) {
		t.Fatalf("err = %v; want the budget exceeded", err)
	}
	made := 0
	for _, v := range verdicts {
		if v.Scores != nil {
			made++
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if srv.Calls() != 3 || st.Calls != 3 || made != 3 || len(files) != 3 {
		t.Errorf("%d calls at the server (stats %d), %d verdicts returned, %d cached; want 3 of each", srv.Calls(), st.Calls, made, len(files))
	}
}
