package gate

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/stats"
)

func TestFormatComparison(t *testing.T) {
	for _, c := range []struct {
		v, t     float64
		exceeded bool
		wantV    string
		wantT    string
	}{
		{0.031, 0.02, true, "3.1 pts", "2.0 pts"},
		// 2.04 pts rounds to 2.0 pts at one decimal: a second decimal shows the ">".
		{0.0204, 0.02, true, "2.04 pts", "2.00 pts"},
		// 2.0004 pts needs four decimals.
		{0.020004, 0.02, true, "2.0004 pts", "2.0000 pts"},
		// Equal after rounding to 1e-9: not exceeded, "2.0 ≤ 2.0" reads true.
		{0.020000000000000018, 0.02, false, "2.0 pts", "2.0 pts"},
		// 1.96 pts ≤ 2.0 pts prints 2.0 ≤ 2.0, which reads true.
		{0.0196, 0.02, false, "2.0 pts", "2.0 pts"},
		{-0.004, 0.02, false, "−0.4 pts", "2.0 pts"},
	} {
		v, th := FormatComparison(c.v, c.t, c.exceeded, Absolute)
		if v != c.wantV || th != c.wantT {
			t.Errorf("FormatComparison(%v, %v, %v) = %q, %q; want %q, %q", c.v, c.t, c.exceeded, v, th, c.wantV, c.wantT)
		}
	}
}

func TestFormatPValue(t *testing.T) {
	for _, c := range []struct {
		p       float64
		rejects bool
		want    string
	}{
		{0.012, true, "p = 0.012"},
		// 0.0496 is 0.05 at two digits, which would read "0.05 < 0.05": three digits.
		{0.0496, true, "p = 0.0496"},
		{0.0504, false, "p = 0.05"}, // "0.05 ≥ 0.05" reads true
		{0.00001, true, "p < 0.0001"},
		{0.5, false, "p = 0.5"},
	} {
		if got := FormatPValue(c.p, 0.05, c.rejects); got != c.want {
			t.Errorf("FormatPValue(%v) = %q; want %q", c.p, got, c.want)
		}
	}
}

// Every decided line, for random figures around the threshold and alpha, reads true at
// the precision it is printed: the printed drop and max_drop, and the printed p and
// alpha, stand in the relation printed between them. And a decision is never pass when
// both the observed drop and the estimate exceed max_drop.
func TestPrintedComparisonsReadTrue(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	num := `(−?[0-9.]+)`
	dropRe := regexp.MustCompile(`decided by estimated drop ` + num + ` pts (>|≤) ` + num + ` pts`)
	pRe := regexp.MustCompile(`one-sided p = ([0-9.e-]+) (<|≥) 0\.05`)
	parse := func(s string) float64 {
		x, err := strconv.ParseFloat(strings.Replace(s, "−", "-", 1), 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return x
	}
	for range 5000 {
		md := 0.02
		drop := 0.02 + (rng.Float64()-0.5)*0.002
		p := 0.05 + (rng.Float64()-0.5)*0.002
		delta := -(0.02 + (rng.Float64()-0.5)*0.01)
		ev := stats.EvidenceResult{Items: 100, PredictedMean: 0.9, CandMean: 0.9 - drop, Drop: drop, SE: 0.01, PValue: p, SumPQ: 1}
		rg := &Regression{MaxDrop: &md, Mode: Absolute, Level: Hard, Method: MethodEvidence, Inconclusive: InconclusiveWarn}
		d := rg.Decide(&baseline.Comparison{Base: 0.9, Cand: 0.9 + delta, Delta: delta, Evidence: ev, CandidateRuns: 1})
		m := dropRe.FindStringSubmatch(d.DecidedBy)
		if m == nil {
			t.Fatalf("no drop comparison in %q", d.DecidedBy)
		}
		v, th := parse(m[1]), parse(m[3])
		if (m[2] == ">") != (v > th) {
			t.Fatalf("%q reads false (drop %v)", d.DecidedBy, drop)
		}
		if pm := pRe.FindStringSubmatch(d.DecidedBy); pm == nil || (pm[2] == "<") != (parse(pm[1]) < 0.05) {
			t.Fatalf("%q: p comparison missing or reads false (p %v)", d.DecidedBy, p)
		}
		if d.Outcome == Pass && DropExceeds(-delta, md) && DropExceeds(drop, md) {
			t.Fatalf("pass with observed drop %v and estimate %v both over %v", -delta, drop, md)
		}
	}
}
