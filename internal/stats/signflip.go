package stats

import "math"

// SignFlipResult is the outcome of SignFlipTest.
type SignFlipResult struct {
	// TwoSided is the p-value for "the mean difference is not 0": the share of sign
	// patterns whose mean is at least as far from 0 as the observed one.
	TwoSided float64
	// Less is the one-sided p-value for "the candidate is worse" (mean difference < 0):
	// the share of sign patterns whose mean is at most the observed one.
	Less float64
	// Resamples is the number of sign patterns evaluated: 2^m when Exact (m = number of
	// non-zero differences), else the Monte Carlo count.
	Resamples int
	// Exact reports whether every sign pattern was enumerated.
	Exact bool
}

// maxExactSignFlips bounds exact enumeration whatever Resamples says: 2^20 patterns.
const maxExactSignFlips = 20

// SignFlipTest is the paired sign-flip permutation test of the mean of diffs
// (candidate − baseline per item). Under the null hypothesis that the candidate and the
// baseline are exchangeable on every item, each difference is as likely to have the
// opposite sign, so the observed mean is compared with the means of the data with
// random signs. Items with a zero difference cannot change any mean and are set aside.
//
// When the m non-zero differences have 2^m ≤ opts.Resamples sign patterns (and m ≤ 20),
// all are enumerated and the p-values are exact proportions. Otherwise opts.Resamples
// random patterns are drawn from PCG seeded (opts.Seed1, opts.Seed2) and
// p = (1 + hits) / (1 + resamples), which is never 0 (Phipson & Smyth, 2010). Means within
// 1e-9 of the observed one count as at least as extreme, so float noise cannot turn a
// tie into a miss.
func SignFlipTest(diffs []float64, opts ResampleOptions) (SignFlipResult, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return SignFlipResult{}, err
	}
	if len(diffs) == 0 {
		return SignFlipResult{}, errEmpty
	}
	nonzero := make([]float64, 0, len(diffs))
	var observed float64
	for _, d := range diffs {
		if d != 0 {
			nonzero = append(nonzero, d)
			observed += d
		}
	}
	// Compare sums, not means: the tolerance 1e-9 on a mean over all n items is
	// 1e-9·n on a sum.
	tol := 1e-9 * float64(len(diffs))
	var c flipCounter
	c.observed, c.tol = observed, tol
	m := len(nonzero)
	if m <= maxExactSignFlips && 1<<m <= opts.Resamples {
		patterns := 1 << m
		for mask := range patterns {
			var s float64
			for i, d := range nonzero {
				if mask>>i&1 == 1 {
					s -= d
				} else {
					s += d
				}
			}
			c.add(s)
		}
		return SignFlipResult{
			TwoSided:  float64(c.twoSided) / float64(patterns),
			Less:      float64(c.less) / float64(patterns),
			Resamples: patterns,
			Exact:     true,
		}, nil
	}
	rng := newPCG(opts.Seed1, opts.Seed2)
	for range opts.Resamples {
		var s float64
		var bitsLeft int
		var word uint64
		for _, d := range nonzero {
			if bitsLeft == 0 {
				word, bitsLeft = rng.Uint64(), 64
			}
			// Flip d's sign bit when the pattern's bit is 1; branch-free because the
			// bits are random and a branch on them mispredicts half the time.
			s += math.Float64frombits(math.Float64bits(d) ^ word<<63)
			word >>= 1
			bitsLeft--
		}
		c.add(s)
	}
	denom := float64(opts.Resamples + 1)
	return SignFlipResult{
		TwoSided:  float64(c.twoSided+1) / denom,
		Less:      float64(c.less+1) / denom,
		Resamples: opts.Resamples,
	}, nil
}

// flipCounter counts sign patterns at least as extreme as the observed sum.
type flipCounter struct {
	observed, tol  float64
	twoSided, less int
}

func (c *flipCounter) add(s float64) {
	if math.Abs(s) >= math.Abs(c.observed)-c.tol {
		c.twoSided++
	}
	if s <= c.observed+c.tol {
		c.less++
	}
}
