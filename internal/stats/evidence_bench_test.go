package stats

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEvidence1M measures the evidence decision's measurement on 1,000,000 items
// (3 baseline runs, 1 candidate run, pass/fail scores with 15 % flaky items): fitting
// the prior and one pass over the items. The budget is 1 s.
//
//	go test -run x -bench Evidence1M -benchtime 3x ./internal/stats
func BenchmarkEvidence1M(b *testing.B) { benchmarkEvidence(b, 1_000_000, 1) }

// BenchmarkEvidence1M3Runs is BenchmarkEvidence1M with 3 candidate runs, where the
// change model (evidence_change.go) measures every item.
//
//	go test -run x -bench Evidence1M3Runs -benchtime 3x ./internal/stats
func BenchmarkEvidence1M3Runs(b *testing.B) { benchmarkEvidence(b, 1_000_000, 3) }

// BenchmarkEvidence1000 is the same suite at 1,000 items and one candidate run, where
// the one-run exact tail (exacttail.go) decides: its weighted sum's distribution over
// the items' few groups holds tens of thousands of sums.
//
//	go test -run x -bench Evidence1000 ./internal/stats
func BenchmarkEvidence1000(b *testing.B) { benchmarkEvidence(b, 1000, 1) }

func benchmarkEvidence(b *testing.B, n, candRuns int) {
	rng := rand.New(rand.NewPCG(1, 2))
	obs := make([]Observation, n)
	vars := make([]float64, n)
	for i := range obs {
		p := 1.0
		if i%100 < 15 {
			p = 0.5
		}
		k := 0
		for range 3 {
			if rng.Float64() < p {
				k++
			}
		}
		m := float64(k) / 3
		vars[i] = m * (1 - m) * 3 / 2
		c := 0
		for range candRuns {
			if rng.Float64() < p {
				c++
			}
		}
		obs[i] = Observation{Index: i, BaseMean: m, BaseRuns: 3, CandMean: float64(c) / float64(candRuns), CandRuns: candRuns}
	}
	b.ResetTimer()
	for range b.N {
		if _, err := MeasureEvidence(obs, vars, 10); err != nil {
			b.Fatal(err)
		}
	}
}
