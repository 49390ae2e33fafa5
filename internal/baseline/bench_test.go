package baseline_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
)

// benchBaseline writes a baseline of n items shaped like bench/'s (four dimensions,
// one run, a 64-character hash) and returns its path.
func benchBaseline(b *testing.B, n int) string {
	b.Helper()
	bl := &baseline.Baseline{Suite: "bench", ScoringSystem: "scoringSystem/1.0.0", Runs: []baseline.RunAggregate{{File: "r.jsonl"}}}
	for i := range n {
		v := float64(i%5) / 4
		bl.Items = append(bl.Items, baseline.Item{ID: fmt.Sprintf("conj-%06d", i), Hash: fmt.Sprintf("%064x", i*7919), Runs: 1,
			Score: v, PassRate: float64(i % 2), PassBits: fmt.Sprint(i % 2),
			Breakdown: map[string]float64{"english": v, "json": 1, "spanish": v, "words": 1}})
	}
	var buf bytes.Buffer
	if err := baseline.Encode(&buf, bl, nil); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "b.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkReadBaseline reads a 100,000-item baseline item by item (Open, Next).
//
//	go test -run x -bench ReadBaseline -benchmem ./internal/baseline
func BenchmarkReadBaseline(b *testing.B) {
	const n = 100_000
	path := benchBaseline(b, n)
	b.ResetTimer()
	for b.Loop() {
		r, err := baseline.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, ok, err := r.Next()
			if err != nil {
				b.Fatal(err)
			}
			if !ok {
				break
			}
		}
		r.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/item")
}
