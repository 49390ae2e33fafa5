package judge_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/live"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// BenchmarkJudge1000 judges 1,000 distinct items against a fake that answers after
// 100 ms, 16 at a time. The ideal wall time is 1000 × 100 ms / 16 = 6.25 s; the goal is
// to stay within 10 % of it. A second pass over the same items must make 0 calls.
//
//	go test -run '^$' -bench BenchmarkJudge1000 -benchtime 1x ./internal/judge/
func BenchmarkJudge1000(b *testing.B) {
	const (
		items       = 1000
		concurrency = 16
		latency     = 100 * time.Millisecond
	)
	ideal := time.Duration(items/concurrency)*latency + time.Duration(items%concurrency)*latency/concurrency
	srv := chattest.New(b, "/v1", chattest.Always(chattest.Reply{Content: valid, Delay: latency, PromptTokens: 400, CompletionTokens: 30}))
	reqs := make([]judge.Request, items)
	for i := range reqs {
		reqs[i] = judge.Request{ID: fmt.Sprint(i), Task: "task", ReferenceAnswer: "ref", CandidateAnswer: fmt.Sprintf("answer %d", i)}
	}
	var wall, cachedWall time.Duration
	var calls, cachedCalls int
	for b.Loop() {
		j, err := judge.New(judge.Config{Model: model, BaseURL: srv.BaseURL(), CacheDir: b.TempDir(), Concurrency: concurrency},
			judge.WithGetenv(func(string) string { return "" }), live.Calls())
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		_, st, err := j.Evaluate(context.Background(), reqs)
		if err != nil {
			b.Fatal(err)
		}
		wall += time.Since(start)
		calls += st.Calls

		start = time.Now()
		_, st, err = j.Evaluate(context.Background(), reqs)
		if err != nil {
			b.Fatal(err)
		}
		cachedWall += time.Since(start)
		cachedCalls += st.Calls
		if st.Calls != 0 || st.CacheHits != items {
			b.Fatalf("second pass: %d calls, %d cache hits; want 0 and %d", st.Calls, st.CacheHits, items)
		}
	}
	n := float64(b.N)
	b.ReportMetric(wall.Seconds()/n, "wall-s")
	b.ReportMetric(ideal.Seconds(), "ideal-s")
	b.ReportMetric(100*(wall.Seconds()/n/ideal.Seconds()-1), "%over-ideal")
	b.ReportMetric(float64(calls)/n, "calls")
	b.ReportMetric(float64(cachedCalls)/n, "cached-calls")
	b.ReportMetric(cachedWall.Seconds()*1000/n, "cached-wall-ms")
}
