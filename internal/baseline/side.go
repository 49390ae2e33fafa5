package baseline

import (
	"math"
	"strings"

	"github.com/evalgate/evalgate/internal/stats"
)

// baseSide is what a comparison keeps of the baseline: a few numbers per item, in
// columns indexed by the candidate's item position (about 33 bytes per item plus 8 per
// dimension; the spreads, 8 more each, only once an item has one: a baseline of one run
// has none), never the items' maps or the recorded outputs. A baseline item the
// candidate lacks is kept only as its id, in Removed.
type baseSide struct {
	// history are earlier releases' runs of the suite (CompareOptions.History), pooled
	// into the run-level noise.
	history  []stats.RunGroup
	dims     []string
	flags    []uint8 // sidePresent, sideChanged, sideBits
	line     []int32 // where the item is in the baseline (refusing repeats)
	score    []float64
	std      []float64
	passRate []float64
	runs     []int32
	// bits are the per-run pass bits of an item whose scores are pass/fail (bit r: run
	// r passed; sideScores set), for the run-level noise; nil while no item has them.
	bits     []uint64
	bd, bdSD [][]float64 // per dimension, per item: mean and sample std over the runs
	removed  []string
	// removedAt is where each removed item is in the baseline (refusing repeats).
	removedAt map[string]int
}

const (
	sidePresent uint8 = 1 << iota // the baseline has the item
	sideChanged                   // its hash differs from the candidate's: the item changed
	sideBits                      // it records per-run pass bits (version 2)
	sideScores                    // its pass bits are its per-run scores (pass/fail scores, ≤ 64 runs)
)

func newBaseSide(n int, dims []string) *baseSide {
	s := &baseSide{dims: dims, flags: make([]uint8, n), line: make([]int32, n), score: make([]float64, n),
		passRate: make([]float64, n), runs: make([]int32, n),
		bd: make([][]float64, len(dims)), bdSD: make([][]float64, len(dims)), removedAt: map[string]int{}}
	for d := range dims {
		s.bd[d] = make([]float64, n)
	}
	return s
}

// put records baseline item it (at pos in the baseline) as the baseline of candidate
// item i, whose hash is candHash.
func (s *baseSide) put(i int, it *Item, candHash string, pos int) {
	f := sidePresent
	if it.Hash != "" && candHash != "" && it.Hash != candHash {
		f |= sideChanged
	}
	s.set(i, it, f, pos)
}

// override replaces candidate item i's baseline figures with re-scored ones, keeping
// whether the item changed when the baseline had it.
func (s *baseSide) override(i int, it *Item) {
	f := s.flags[i] & (sidePresent | sideChanged)
	f |= sidePresent
	s.set(i, it, f, int(s.line[i]))
}

func (s *baseSide) set(i int, it *Item, f uint8, pos int) {
	if it.PassBits != "" {
		f |= sideBits
	}
	if b, ok := scoreBits(it); ok {
		f |= sideScores
		if s.bits == nil {
			s.bits = make([]uint64, len(s.score))
		}
		s.bits[i] = b
	}
	s.flags[i] = f
	s.line[i] = int32(min(pos, 1<<31-1))
	s.score[i], s.passRate[i] = it.Score, it.PassRate
	setSparse(&s.std, len(s.score), i, it.ScoreStd)
	s.runs[i] = int32(min(max(it.Runs, 1), 1<<31-1))
	for d, name := range s.dims {
		s.bd[d][i] = breakdownOf(it, name)
		setSparse(&s.bdSD[d], len(s.score), i, it.BreakdownStd[name])
	}
}

// breakdownOf is an item's mean value of a dimension, NaN when the item has none: the
// dimension is n/a for it (a baseline stores no value for it).
func breakdownOf(it *Item, name string) float64 {
	v, ok := it.Breakdown[name]
	if !ok {
		return math.NaN()
	}
	return v
}

// setSparse sets (*col)[i] = v in a column of n values that stays nil while every
// value is 0.
func setSparse(col *[]float64, n, i int, v float64) {
	if *col == nil {
		if v == 0 {
			return
		}
		*col = make([]float64, n)
	}
	(*col)[i] = v
}

// at is col[k], or 0 from a column left nil.
func at(col []float64, k int) float64 {
	if col == nil {
		return 0
	}
	return col[k]
}

// move copies item i's figures to position k ≤ i, compacting the compared items to the
// front of the columns in candidate order.
func (s *baseSide) move(k, i int) {
	if k == i {
		return
	}
	s.flags[k], s.line[k], s.score[k], s.passRate[k], s.runs[k] = s.flags[i], s.line[i], s.score[i], s.passRate[i], s.runs[i]
	if s.bits != nil {
		s.bits[k] = s.bits[i]
	}
	if s.std != nil {
		s.std[k] = s.std[i]
	}
	for d := range s.dims {
		s.bd[d][k] = s.bd[d][i]
		if s.bdSD[d] != nil {
			s.bdSD[d][k] = s.bdSD[d][i]
		}
	}
}

// variance is compacted item k's sample variance over the baseline's runs: from its
// recorded spread, or, in a version 1 baseline without one, from its pass rate as if
// its scores were pass/fail.
func (s *baseSide) variance(k int) float64 {
	runs := int(s.runs[k])
	if sd := at(s.std, k); sd > 0 || s.flags[k]&sideBits != 0 || runs < 2 {
		return sd * sd
	}
	p := s.passRate[k]
	return p * (1 - p) * float64(runs) / float64(runs-1)
}

// scoreBits reads an item's pass bits as its per-run scores: when its scores are
// pass/fail, its mean score is its pass rate, and the bits are the scores themselves.
func scoreBits(it *Item) (uint64, bool) {
	if it.PassBits == "" || len(it.PassBits) > 64 || it.Score != it.PassRate || strings.Trim(it.PassBits, "01") != "" {
		return 0, false
	}
	var b uint64
	for r := range len(it.PassBits) {
		if it.PassBits[r] == '1' {
			b |= 1 << r
		}
	}
	return b, true
}

// fullRunBits are a saved item's pass/fail scores in its full runs (its first
// Rounds.FullRuns when it was re-run), when it has two or more and its scores are
// pass/fail.
func fullRunBits(it *Item) (uint64, int, bool) {
	b, ok := scoreBits(it)
	runs := len(it.PassBits)
	if it.Rounds != nil {
		runs = it.Rounds.FullRuns
		ok = ok && runs <= len(it.PassBits)
	}
	if !ok || runs < 2 {
		return 0, 0, false
	}
	return b & (1<<runs - 1), runs, true
}

// runBits is compacted item k's per-run scores as bits, when they are known.
func (s *baseSide) runBits(k int) (uint64, bool) {
	if s.flags[k]&sideScores == 0 || s.bits == nil {
		return 0, false
	}
	return s.bits[k], true
}
