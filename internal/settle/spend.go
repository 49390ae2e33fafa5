package settle

import (
	"math"
	"strconv"
)

// Spent is the Pocock-type alpha-spending function (Lan and DeMets 1983): the share of
// the total level α a procedure may have spent by information fraction t (0 ≤ t ≤ 1),
// α·ln(1 + (e − 1)·t). It is 0 at t = 0 and α at t = 1, and spends early: at t = 0.8
// it has spent 86 % of α, so the first look keeps most of the gate's power.
func Spent(alpha, t float64) float64 {
	t = math.Max(0, math.Min(1, t))
	return alpha * math.Log(1+(math.E-1)*t)
}

// Spending turns the spending function into each look's nominal one-sided level, for
// looks at increasing information fractions given one at a time. The statistic is
// taken to be a standardised sum with independent increments (a Brownian motion in t
// under "no drop": Jennison and Turnbull 2000, ch. 7), so look k's boundary b_k is set
// such that the chance of first crossing at look k, having stayed under every earlier
// boundary, is Spent(t_k) − Spent(t_{k−1}); the sum over looks is then Spent(t_last)
// ≤ α. Because successive looks share most of their data, each nominal level is well
// above its share of α (the Bonferroni split would waste the overlap). It is computed
// by numerical integration over a grid of the sum's value (Armitage, McPherson and
// Rowe 1969), deterministically.
type Spending struct {
	alpha float64
	t     float64   // the last look's information fraction (0 before the first)
	spent float64   // Spent(t)
	f     []float64 // sub-density of the sum W(t) on the grid, below every boundary so far
}

// NewSpending starts the looks of a procedure of total one-sided level alpha.
func NewSpending(alpha float64) *Spending { return &Spending{alpha: alpha} }

// The grid of W(t) (whose variance is t ≤ 1): step gridStep over [gridLo, gridHi].
const (
	gridStep = 0.02
	gridLo   = -8.0
	gridHi   = 8.0
)

func gridLen() int         { return int((gridHi-gridLo)/gridStep) + 1 }
func gridAt(i int) float64 { return gridLo + float64(i)*gridStep }

// Next is the nominal one-sided level of the look at information fraction t (greater
// than the last look's; at most 1): reject "no drop" there when p < Next(t). Rounded
// down to 3 significant digits, so the level printed is the level tested. Returns 0
// when t does not move forward (nothing left to spend).
func (s *Spending) Next(t float64) float64 {
	t = math.Min(1, t)
	if !(t > s.t) {
		return 0
	}
	share := Spent(s.alpha, t) - s.spent
	var level float64
	if s.f == nil {
		// First look: W(t) ~ N(0, t); cross with probability share.
		level = floor3(share)
		c := zUpper(level) * math.Sqrt(t)
		s.f = make([]float64, gridLen())
		for i := range s.f {
			if w := gridAt(i); w < c {
				s.f[i] = phi(w/math.Sqrt(t)) / math.Sqrt(t)
			}
		}
	} else {
		sd := math.Sqrt(t - s.t)
		cross := func(c float64) float64 { // P(stay under until now, then W(t) > c)
			p := 0.0
			for i, fi := range s.f {
				if fi > 0 {
					p += fi * gridStep * 0.5 * math.Erfc((c-gridAt(i))/sd/math.Sqrt2)
				}
			}
			return p
		}
		lo, hi := gridLo, gridHi
		for range 60 { // bisect the boundary c: cross falls as c rises
			mid := (lo + hi) / 2
			if cross(mid) > share {
				lo = mid
			} else {
				hi = mid
			}
		}
		level = floor3(0.5 * math.Erfc(hi/math.Sqrt(t)/math.Sqrt2))
		c := zUpper(level) * math.Sqrt(t)
		next := make([]float64, len(s.f))
		for j := range next {
			w := gridAt(j)
			if w >= c {
				continue
			}
			v := 0.0
			for i, fi := range s.f {
				if fi > 0 {
					v += fi * gridStep * phi((w-gridAt(i))/sd) / sd
				}
			}
			next[j] = v
		}
		s.f = next
	}
	s.t, s.spent = t, Spent(s.alpha, t)
	return level
}

// phi is the standard normal density.
func phi(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) }

// zUpper is the z whose upper tail is p.
func zUpper(p float64) float64 { return math.Sqrt2 * math.Erfcinv(2*p) }

// floor3 rounds a positive x down to 3 significant digits (0 for x ≤ 0).
func floor3(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	exp := int(math.Floor(math.Log10(x))) - 2
	m := math.Floor(x / math.Pow(10, float64(exp)))
	v, _ := strconv.ParseFloat(strconv.FormatFloat(m, 'f', 0, 64)+"e"+strconv.Itoa(exp), 64)
	return v
}
