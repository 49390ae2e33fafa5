package stats

import (
	"math"
	"testing"
)

// Hand-computed tails. Three items of weight 1 failing with probability 0.1, one of them
// failed: P(at least one fails) = 1 − 0.9³ = 0.271, for both statistics. Two coins of
// weight 1 and 2 at q = 0.5, the weight-2 one failed: S ∈ {0, 1, 2, 3} each with
// probability 1/4, P(S ≥ 2) = 0.5; the count ≥ 1 has probability 0.75.
func TestExactTails(t *testing.T) {
	pw, pu, ok := exactTails([]coin{{1, 0.1, true}, {1, 0.1, false}, {1, 0.1, false}})
	if !ok || math.Abs(pw-0.271) > 1e-12 || math.Abs(pu-0.271) > 1e-12 {
		t.Errorf("three coins: %v %v %v; want 0.271 twice", pw, pu, ok)
	}
	pw, pu, ok = exactTails([]coin{{1, 0.5, false}, {2, 0.5, true}})
	if !ok || math.Abs(pw-0.5) > 1e-12 || math.Abs(pu-0.75) > 1e-12 {
		t.Errorf("two coins: %v %v %v; want 0.5 and 0.75", pw, pu, ok)
	}
	// Nothing failed: both tails are 1.
	if pw, pu, _ = exactTails([]coin{{1, 0.01, false}, {3, 0.02, false}}); pw != 1 || math.Abs(pu-1) > 1e-12 {
		t.Errorf("no failure: %v %v; want 1 and 1", pw, pu)
	}
}

// The newcomer's case: 8 items that passed all 3 baseline runs, one of them failing its
// one candidate run. Each item fails with q = 1 − E[p | 3/3] under the prior (about 1 %:
// 8 items are little evidence that items of this suite never fail), so P(at least one
// of 8 fails) = 1 − (1 − q)⁸ (about 13 %) for both statistics, and the combined p is
// min(p_w/0.65, p_u/0.35) = p_w/0.65 (β = 0.35: three baseline runs and one candidate
// run know the runs' spread to 2 degrees of freedom), over 0.05: a 12.5-pt drop that
// one run of 8 items cannot tell from chance. The Cornish–Fisher reading gave p ≈ 0.03, a block.
func TestExactTailNewcomer(t *testing.T) {
	r := allSame(t, 8, 3, 1, 1, 1)
	q := 1 - r.Prior.Posterior(1, 3)
	want := 1 - math.Pow(1-q, 8)
	if !r.Exact || math.Abs(r.PW-want) > 1e-9 || math.Abs(r.PU-want) > 1e-9 {
		t.Fatalf("exact %v, p_w %v, p_u %v; want both 1 − (1 − %.4f)⁸ = %v", r.Exact, r.PW, r.PU, q, want)
	}
	if math.Abs(r.PValue-want/0.65) > 1e-9 || r.PValue < 0.05 {
		t.Errorf("p = %v; want p_w/0.65 = %v, over 0.05", r.PValue, want/0.65)
	}
	t.Logf("q %.4f, p_w %.4f, p %.4f", q, r.PW, r.PValue)
}

// The split into two halves (meet in the middle) gives the tail that enumerating every
// outcome gives: for 12 coins of 5 distinct weights (some sharing a weight and a failure
// probability, so groups hold several items), P(Σ w·f ≥ observed) summed over all 2¹²
// failure patterns with their probabilities Π q^f·(1 − q)^(1−f), and the count's tail
// likewise.
func TestExactTailsMatchEnumeration(t *testing.T) {
	ws := []float64{1, 1, 1, 2.5, 2.5, 7, 7, 7, 0.3, 0.3, 11, 1}
	qs := []float64{0.1, 0.1, 0.1, 0.4, 0.4, 0.05, 0.05, 0.05, 0.7, 0.7, 0.02, 0.3}
	for _, failed := range []uint{0b000000000001, 0b000000100000, 0b010000100110, 0b100000000000, 0b111111111111, 0} {
		coins := make([]coin, len(ws))
		var obsW float64
		obsN := 0
		for i := range coins {
			coins[i] = coin{w: ws[i], q: qs[i], failed: failed>>i&1 == 1}
			if coins[i].failed {
				obsW += ws[i]
				obsN++
			}
		}
		var wantW, wantU float64
		for pat := range 1 << len(ws) {
			p, s, n := 1.0, 0.0, 0
			for i := range ws {
				if pat>>i&1 == 1 {
					p *= qs[i]
					s += ws[i]
					n++
				} else {
					p *= 1 - qs[i]
				}
			}
			if s >= obsW-1e-9 {
				wantW += p
			}
			if n >= obsN {
				wantU += p
			}
		}
		pw, pu, ok := exactTails(coins)
		if !ok || math.Abs(pw-wantW) > 1e-12 || math.Abs(pu-wantU) > 1e-12 {
			t.Errorf("failed %012b: p_w %v, p_u %v, ok %v; enumeration gives %v and %v", failed, pw, pu, ok, wantW, wantU)
		}
	}
}
