package stats

import (
	"fmt"
	"math"
	"slices"
)

// Level is a level of measurement for Krippendorff's α: it chooses the difference
// function δ² between two values.
type Level string

// The levels of measurement (Krippendorff 2011, "Computing Krippendorff's
// Alpha-Reliability", section E).
const (
	// LevelNominal: δ² = 0 when two values are equal, 1 otherwise (labels, pass/fail).
	LevelNominal Level = "nominal"
	// LevelOrdinal: δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)², ranks weighted by how many
	// values lie between.
	LevelOrdinal Level = "ordinal"
	// LevelInterval: δ² = (c − k)².
	LevelInterval Level = "interval"
	// LevelRatio: δ² = ((c − k)/(c + k))².
	LevelRatio Level = "ratio"
)

// Agreement is Krippendorff's α over reliability data, with what it was computed from.
type Agreement struct {
	// Alpha is 1 − D_o/D_e; 1 is perfect agreement, 0 agreement at chance level. It is
	// NaN when D_e = 0 (every pairable value is the same: agreement cannot be told
	// from chance).
	Alpha float64 `json:"alpha"`
	// Observed and Expected are the disagreements D_o and D_e, in δ² units.
	Observed float64 `json:"observed_disagreement"`
	Expected float64 `json:"expected_disagreement"`
	// Units is the number of pairable units (two or more values); Values the n of
	// pairable values.
	Units  int `json:"units"`
	Values int `json:"values"`
}

// KrippendorffAlpha computes Krippendorff's α for reliability data given unit by unit:
// units[u] holds the values the coders (or repeated judgments) gave unit u, with NaN
// for a missing value. Units with fewer than two values are not pairable and are left
// out, as the coefficient defines. It follows Krippendorff (2011), "Computing
// Krippendorff's Alpha-Reliability", section C: the coincidence matrix
// o_ck = Σ_u (number of c–k pairs in u)/(m_u − 1), n_c = Σ_k o_ck, n = Σ_c n_c,
// D_o = Σ_c Σ_k o_ck δ²_ck / n, D_e = Σ_c Σ_k n_c n_k δ²_ck / (n(n − 1)).
func KrippendorffAlpha(units [][]float64, level Level) (Agreement, error) {
	switch level {
	case LevelNominal, LevelOrdinal, LevelInterval, LevelRatio:
	default:
		return Agreement{}, fmt.Errorf("krippendorff: level %q; want nominal, ordinal, interval or ratio", level)
	}
	// The distinct values, sorted: the matrix's rows and columns.
	var vals []float64
	for _, u := range units {
		if pairable(u) < 2 {
			continue
		}
		for _, v := range u {
			if math.IsInf(v, 0) {
				return Agreement{}, fmt.Errorf("krippendorff: value %v is not a number", v)
			}
			if !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	if level == LevelRatio && len(vals) > 0 && vals[0] < 0 {
		return Agreement{}, fmt.Errorf("krippendorff: ratio level needs values ≥ 0; got %v", vals[0])
	}
	idx := make(map[float64]int, len(vals))
	for i, v := range vals {
		idx[v] = i
	}
	c := len(vals)
	o := make([]float64, c*c)
	var a Agreement
	count := make([]float64, c)
	for _, u := range units {
		m := pairable(u)
		if m < 2 {
			continue
		}
		a.Units++
		a.Values += m
		clear(count)
		for _, v := range u {
			if !math.IsNaN(v) {
				count[idx[v]]++
			}
		}
		// Pairs of values from different coders: n_c·n_k for c ≠ k, n_c·(n_c − 1) for c = k.
		for i := range c {
			if count[i] == 0 {
				continue
			}
			for k := range c {
				if count[k] == 0 {
					continue
				}
				pairs := count[i] * count[k]
				if i == k {
					pairs = count[i] * (count[i] - 1)
				}
				o[i*c+k] += pairs / float64(m-1)
			}
		}
	}
	if a.Units == 0 {
		return Agreement{}, fmt.Errorf("krippendorff: no pairable unit (a unit needs two or more values)")
	}
	nc := make([]float64, c)
	n := 0.0
	for i := range c {
		for k := range c {
			nc[i] += o[i*c+k]
		}
		n += nc[i]
	}
	delta := deltaFunc(level, vals, nc)
	var do, de float64
	for i := range c {
		for k := range c {
			d := delta(i, k)
			do += o[i*c+k] * d
			de += nc[i] * nc[k] * d
		}
	}
	a.Observed = do / n
	a.Expected = de / (n * (n - 1))
	if a.Expected == 0 {
		a.Alpha = math.NaN()
		return a, nil
	}
	a.Alpha = 1 - a.Observed/a.Expected
	return a, nil
}

// pairable counts the values of a unit that are not missing.
func pairable(u []float64) int {
	m := 0
	for _, v := range u {
		if !math.IsNaN(v) {
			m++
		}
	}
	return m
}

// deltaFunc returns δ²(i, k) between the i-th and k-th distinct values.
func deltaFunc(level Level, vals, nc []float64) func(i, k int) float64 {
	switch level {
	case LevelNominal:
		return func(i, k int) float64 {
			if i == k {
				return 0
			}
			return 1
		}
	case LevelOrdinal:
		cum := make([]float64, len(nc)+1) // cum[i] = Σ_{g<i} n_g
		for i, x := range nc {
			cum[i+1] = cum[i] + x
		}
		return func(i, k int) float64 {
			if i > k {
				i, k = k, i
			}
			d := cum[k+1] - cum[i] - (nc[i]+nc[k])/2
			return d * d
		}
	case LevelRatio:
		return func(i, k int) float64 {
			s := vals[i] + vals[k]
			if s == 0 {
				return 0
			}
			d := (vals[i] - vals[k]) / s
			return d * d
		}
	default:
		return func(i, k int) float64 {
			d := vals[i] - vals[k]
			return d * d
		}
	}
}

// ExactAgreement is the share of pairs of values within a unit that are equal (pairs of
// different coders or repeats of one unit, over every pairable unit), the plain
// percent agreement reported beside α. NaN when no unit is pairable.
func ExactAgreement(units [][]float64) float64 {
	var same, pairs float64
	for _, u := range units {
		for i := range u {
			if math.IsNaN(u[i]) {
				continue
			}
			for k := i + 1; k < len(u); k++ {
				if math.IsNaN(u[k]) {
					continue
				}
				pairs++
				if u[i] == u[k] {
					same++
				}
			}
		}
	}
	if pairs == 0 {
		return math.NaN()
	}
	return same / pairs
}
