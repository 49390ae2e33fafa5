// Command guardbound computes how much power a run-level guard can have: the most any
// one-sided test can detect a drop with, when it must keep its level under every
// run-level variance, beside what the guard's readings detect.
//
// The setting is the unweighted guard's with three candidate runs beside a three-run
// baseline (4 degrees of freedom). The statistic is D ~ N(δ, v) in units of its
// item-level standard error, v = 1 + (run-level variance)/(item-level variance) ≥ 1
// unknown, and the runs' spread, as a ratio to what items alone predict, is
// x ~ v·χ²_df/df, independent of D. A test rejects when D > h(x). For every v it must
// reject with probability at most α when δ = 0; the bound maximizes its power at
// v = 1 (no run-level noise: the case where a drop of the flaky items has to be found)
// by Lagrangian duality over a grid of v, each x bin's h chosen on its own. The
// readings compared:
//
//   - floored: h = t·√max(1, x), the variance floored at the item-level one (the
//     guard before spreadVariance);
//   - t: h = t·√x, Student's t on the spread as measured (spreadVariance when the
//     statistic's item part is the runs' own);
//   - bound: the best h.
//
// One run and settle is the same setting on 3 degrees of freedom: at best every item
// that dropped is re-run once, within the 20 % budget, so the pull request has two runs
// of them beside the baseline's three (-df 3; a 4-pt flaky drop is then about 3.0 to
// 3.2 of its standard errors).
//
// Run: go run ./bench/guardbound [-alpha 0.015] [-delta 3.2] [-df 4]
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
)

func main() {
	alpha := flag.Float64("alpha", 0.02, "the guard's level")
	delta := flag.Float64("delta", 3.2, "the drop in item-level standard errors (a 4-pt flaky drop at 200 items with three runs: about 3.2 to 3.9)")
	df := flag.Int("df", 4, "degrees of freedom of the runs' spread")
	iters := flag.Int("iters", 1200, "dual ascent steps")
	flag.Parse()
	if *alpha <= 0 || *alpha >= 0.5 || *df < 1 || *iters < 1 {
		fmt.Fprintln(os.Stderr, "guardbound: -alpha in (0, 0.5), -df ≥ 1 and -iters ≥ 1")
		os.Exit(2)
	}
	b := newBins(*df)
	t := b.tCrit(*alpha)
	fmt.Printf("level %.3f, δ = %.2f, %d df: t critical %.3f\n", *alpha, *delta, *df, t)
	fmt.Printf("  z (variance known):  %.3f\n", phiBar(normalQuantile(*alpha)-*delta))
	fmt.Printf("  floored:             %.3f\n", b.power(func(x float64) float64 { return t * math.Sqrt(math.Max(1, x)) }, *delta))
	fmt.Printf("  t on the spread:     %.3f\n", b.power(func(x float64) float64 { return t * math.Sqrt(x) }, *delta))
	p, size := b.bound(*alpha, *delta, *iters)
	fmt.Printf("  bound (best test):   %.3f (its largest size over v: %.4f)\n", p, size)
}

func phiBar(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) }

func normalQuantile(tail float64) float64 { return math.Sqrt2 * math.Erfcinv(2*tail) }

// bins is a log grid over x, with each v's probabilities of the bins.
type bins struct {
	x  []float64
	vs []float64
	pv [][]float64
}

func newBins(df int) *bins {
	const n = 400
	lo, hi := math.Log(1e-3), math.Log(3000)
	b := &bins{vs: []float64{1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 7, 10, 15, 25, 50, 100, 300}}
	w := make([]float64, n)
	for i := range n {
		a := lo + (hi-lo)*float64(i)/n
		c := lo + (hi-lo)*float64(i+1)/n
		b.x = append(b.x, math.Exp((a+c)/2))
		w[i] = math.Exp(c) - math.Exp(a)
	}
	k := float64(df)
	lg, _ := math.Lgamma(k / 2)
	for _, v := range b.vs {
		p := make([]float64, n)
		var s float64
		for i, x := range b.x {
			c := x * k / v // the χ²_df value
			p[i] = math.Exp((k/2-1)*math.Log(c)-c/2-k/2*math.Ln2-lg) * k / v * w[i]
			s += p[i]
		}
		for i := range p {
			p[i] /= s
		}
		b.pv = append(b.pv, p)
	}
	return b
}

// tCrit is the t reading's critical value at level alpha (v = 1; exact for every v).
func (b *bins) tCrit(alpha float64) float64 {
	lo, hi := 0.0, 100.0
	for range 100 {
		m := (lo + hi) / 2
		if b.size(0, func(x float64) float64 { return m * math.Sqrt(x) }) > alpha {
			lo = m
		} else {
			hi = m
		}
	}
	return hi
}

func (b *bins) size(k int, h func(float64) float64) float64 {
	var s float64
	for i, x := range b.x {
		s += b.pv[k][i] * phiBar(h(x)/math.Sqrt(b.vs[k]))
	}
	return s
}

func (b *bins) power(h func(float64) float64, delta float64) float64 {
	var s float64
	for i, x := range b.x {
		s += b.pv[0][i] * phiBar(h(x)-delta)
	}
	return s
}

// bound maximizes the power at v = 1 subject to size ≤ alpha at every v of the grid,
// by projected subgradient ascent on the multipliers; it returns the power and the
// largest size of the final test.
func (b *bins) bound(alpha, delta float64, iters int) (float64, float64) {
	lam := make([]float64, len(b.vs))
	for k := range lam {
		lam[k] = 1
	}
	h := make([]float64, len(b.x))
	var maxSize float64
	for it := range iters {
		for i, x := range b.x {
			best := math.Inf(-1)
			for u := 0.0; u < 8; u += 0.02 {
				hh := u * math.Sqrt(x)
				val := b.pv[0][i] * phiBar(hh-delta)
				for k, v := range b.vs {
					val -= lam[k] * b.pv[k][i] * phiBar(hh/math.Sqrt(v))
				}
				if val > best {
					best, h[i] = val, hh
				}
			}
		}
		step := 2 / math.Sqrt(float64(it+1))
		maxSize = 0
		for k := range b.vs {
			s := 0.0
			for i := range b.x {
				s += b.pv[k][i] * phiBar(h[i]/math.Sqrt(b.vs[k]))
			}
			lam[k] = math.Max(0, lam[k]+step*(s-alpha)/alpha)
			maxSize = math.Max(maxSize, s)
		}
	}
	var p float64
	for i := range b.x {
		p += b.pv[0][i] * phiBar(h[i]-delta)
	}
	return p, maxSize
}
