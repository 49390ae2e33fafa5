package stats

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// withExactUpTo lowers the switch to the sketch for one test.
func withExactUpTo(t *testing.T, n int) {
	t.Helper()
	old := ExactQuantilesUpTo
	ExactQuantilesUpTo = n
	t.Cleanup(func() { ExactQuantilesUpTo = old })
}

// TestQuantilesExactIsPercentile: up to the switch, Quantiles gives Percentile's
// figure to the last bit, whatever the order of the values.
func TestQuantilesExactIsPercentile(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 10, 1001} {
		xs := make([]float64, n)
		var q Quantiles
		for i := range xs {
			xs[i] = math.Round(rng.ExpFloat64()*1e5) / 100
			q.Add(xs[i])
		}
		for _, p := range []float64{0, 1, 50, 90, 95, 99, 99.9, 100} {
			want, _ := Percentile(xs, p)
			got, ok := q.Percentile(p)
			if !ok || got != want || q.Sketched() {
				t.Errorf("n=%d p%v: %v (ok %v, sketched %v); want exactly %v", n, p, got, ok, q.Sketched(), want)
			}
		}
	}
	// Hand-computed: 100, 200, 300, 400 → p50 = 200 + 0.5·100 = 250 (h = 3·0.5 = 1.5);
	// p95: h = 3·0.95 = 2.85 → 300 + 0.85·100 = 385.
	var q Quantiles
	for _, x := range []float64{400, 100, 300, 200} {
		q.Add(x)
	}
	if p, _ := q.Percentile(50); p != 250 {
		t.Errorf("p50 = %v; want 250", p)
	}
	if p, _ := q.Percentile(95); math.Abs(p-385) > 1e-9 {
		t.Errorf("p95 = %v; want 385", p)
	}
	if _, ok := (&Quantiles{}).Percentile(50); ok {
		t.Errorf("an empty Quantiles has a percentile")
	}
	if _, ok := q.Percentile(101); ok {
		t.Errorf("p101 exists")
	}
}

// TestQuantilesSketchErrorBound: past the switch (the real one, 1,000,000 values, on
// 2,000,000 random latencies of three shapes), every estimated percentile is within
// SketchRelativeAccuracy of the exact type-7 percentile (Percentile on all the values).
func TestQuantilesSketchErrorBound(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000,000 values")
	}
	const n = 2_000_000
	rng := rand.New(rand.NewPCG(42, 42))
	for _, shape := range []struct {
		name string
		draw func() float64
	}{
		{"lognormal", func() float64 { return math.Exp(6 + 0.8*rng.NormFloat64()) }},
		{"uniform integers", func() float64 { return float64(rng.IntN(5000)) }},
		{"bimodal with zeros", func() float64 {
			switch rng.IntN(10) {
			case 0:
				return 0
			case 1, 2:
				return max(0, 30000+1000*rng.NormFloat64())
			}
			return 200 + 20*rng.ExpFloat64()
		}},
	} {
		xs := make([]float64, n)
		var q Quantiles
		for i := range xs {
			xs[i] = shape.draw()
			q.Add(xs[i])
		}
		if !q.Sketched() || q.Len() != n {
			t.Fatalf("%s: sketched %v with %d values; want a sketch of %d", shape.name, q.Sketched(), q.Len(), n)
		}
		slices.Sort(xs)
		for _, p := range []float64{0, 1, 10, 50, 75, 90, 95, 99, 99.9, 100} {
			est, ok := q.Percentile(p)
			exact := quantileSorted(xs, p/100)
			if !ok || math.Abs(est-exact) > SketchRelativeAccuracy*exact*(1+1e-9) {
				t.Errorf("%s p%v: estimate %v, exact %v: off by %.4g%%; the bound is %v%%", shape.name, p, est, exact, 100*math.Abs(est-exact)/exact, 100*SketchRelativeAccuracy)
			}
		}
	}
}

// TestQuantilesMergeIsOrderFree: parts merged give the percentiles of all the values
// added to one Quantiles, bit for bit, exact or sketched, whatever the split.
func TestQuantilesMergeIsOrderFree(t *testing.T) {
	withExactUpTo(t, 100)
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{60, 100, 101, 5000} {
		xs := make([]float64, n)
		var whole Quantiles
		for i := range xs {
			xs[i] = math.Round(rng.ExpFloat64()*3e4) / 10
			whole.Add(xs[i])
		}
		parts := make([]Quantiles, 4)
		for i, x := range xs {
			parts[(i*7919)%4].Add(x) // not contiguous: every part sees values from all over
		}
		var merged Quantiles
		for _, k := range []int{2, 0, 3, 1} {
			merged.Merge(&parts[k])
		}
		if merged.Len() != n || merged.Sketched() != (n > 100) || whole.Sketched() != (n > 100) {
			t.Fatalf("n=%d: merged %d values, sketched %v/%v", n, merged.Len(), merged.Sketched(), whole.Sketched())
		}
		for _, p := range []float64{0, 50, 95, 99, 100} {
			a, _ := whole.Percentile(p)
			b, _ := merged.Percentile(p)
			if a != b {
				t.Errorf("n=%d p%v: merged %v; one Quantiles %v", n, p, b, a)
			}
		}
	}
}

// TestQuantilesHandComputedSketch: the sketch's estimates for known values. With α =
// 0.01 the log mapping's base is γ = 1.01/0.99 (ln γ = 0.0200007) and a value v falls
// in bucket ⌊ln v / ln γ⌋, whose value is γ^bucket · (1 + α): 200 is in bucket
// ⌊264.907⌋ = 264, valued 198.3685; 1000 in bucket ⌊345.376⌋ = 345, valued 1002.4280.
// Nine values 200 and one 1000 (sorted x[0..9]):
//   - p50: h = 9 · 0.50 = 4.5, between x[4] = x[5] = 200 → 198.3685 (exact 200);
//   - p95: h = 9 · 0.95 = 8.55, between x[8] = 200 and x[9] = 1000 → 198.3685 + 0.55 ·
//     (1002.4280 − 198.3685) = 640.6012 (exact 200 + 0.55 · 800 = 640: off by 0.094 %).
func TestQuantilesHandComputedSketch(t *testing.T) {
	withExactUpTo(t, 5)
	var q Quantiles
	for i := range 10 {
		if i == 3 {
			q.Add(1000)
		} else {
			q.Add(200)
		}
	}
	if !q.Sketched() {
		t.Fatalf("10 values past the switch at 5 are not sketched")
	}
	for _, c := range []struct{ p, want float64 }{{50, 198.3685}, {95, 640.6012}, {100, 1002.4280}, {0, 198.3685}} {
		if got, _ := q.Percentile(c.p); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("p%v = %.4f; want %.4f", c.p, got, c.want)
		}
	}
	// Absurd values are clamped, not lost: the maximum is still the largest.
	q.Add(math.MaxFloat64)
	if p, _ := q.Percentile(100); p < 1e307 || q.Len() != 11 {
		t.Errorf("p100 with MaxFloat64 added = %v over %d values", p, q.Len())
	}
	// Zeros and negative values keep their order.
	var z Quantiles
	for _, x := range []float64{-50, 0, 0, 0, 10, 10, 10, 10, 10, 10} {
		z.Add(x)
	}
	if lo, _ := z.Percentile(0); lo > -49 || lo < -51 {
		t.Errorf("p0 = %v; want within 1%% of −50", lo)
	}
	if med, _ := z.Percentile(30); med != 0 { // h = 2.7, between x[2] = x[3] = 0
		t.Errorf("p30 = %v; want 0", med)
	}
}

// TestQuantilesStateRoundTrip: a sketch written as a SketchState (through JSON) and
// merged back gives the same percentiles, bit for bit, as the Quantiles it came from,
// and parts' states merged give the whole's; an inconsistent state is refused and
// changes nothing.
func TestQuantilesStateRoundTrip(t *testing.T) {
	withExactUpTo(t, 50)
	rng := rand.New(rand.NewPCG(3, 4))
	var whole Quantiles
	parts := make([]Quantiles, 3)
	for i := range 1000 {
		x := math.Round(rng.NormFloat64()*300) / 10 // negative, zero and positive values
		whole.Add(x)
		parts[i%3].Add(x)
	}
	if parts[0].State() == nil || (&Quantiles{}).State() != nil {
		t.Fatalf("State: want a sketch for 334 values past 50, none for an empty Quantiles")
	}
	var merged Quantiles
	for i := range parts {
		b, err := json.Marshal(parts[i].State())
		if err != nil {
			t.Fatal(err)
		}
		var st SketchState
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		if err := merged.MergeState(&st); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []float64{0, 5, 25, 50, 95, 100} {
		a, _ := whole.Percentile(p)
		b, _ := merged.Percentile(p)
		if a != b || merged.Len() != 1000 {
			t.Errorf("p%v: from states %v over %d values; whole %v", p, b, merged.Len(), a)
		}
	}
	good := whole.State()
	for name, bad := range map[string]func(s *SketchState){
		"other accuracy":  func(s *SketchState) { s.RelativeAccuracy = 0.02 },
		"count mismatch":  func(s *SketchState) { s.Count++ },
		"negative bucket": func(s *SketchState) { s.Positive.Counts[0] = -1; s.Count-- },
		"too wide":        func(s *SketchState) { s.Positive.Offset = 1 << 30 },
		"empty":           func(s *SketchState) { *s = SketchState{RelativeAccuracy: SketchRelativeAccuracy} },
	} {
		b, _ := json.Marshal(good)
		var st SketchState
		_ = json.Unmarshal(b, &st)
		bad(&st)
		var q Quantiles
		q.Add(1)
		if err := q.MergeState(&st); err == nil || q.Len() != 1 || q.Sketched() {
			t.Errorf("%s: MergeState = %v, left %d values (sketched %v); want an error and q unchanged", name, err, q.Len(), q.Sketched())
		}
	}
}

// FuzzSketchState: any JSON a partial report may hold as a latency sketch either is
// refused or merges into a Quantiles whose count is the state's and whose percentiles
// are ordered; nothing panics or allocates past the span bound.
//
//	go test -run x -fuzz FuzzSketchState ./internal/stats
func FuzzSketchState(f *testing.F) {
	for _, s := range []string{
		`{"relative_accuracy":0.01,"count":3,"zero":1,"positive":{"offset":264,"counts":[1,0,1]}}`,
		`{"relative_accuracy":0.01,"count":2,"negative":{"offset":-5,"counts":[2]}}`,
		`{"relative_accuracy":0.01,"count":1,"positive":{"offset":131072,"counts":[1]}}`,
		`{"relative_accuracy":0.02,"count":1,"zero":1}`,
		`{"relative_accuracy":0.01,"count":-1,"zero":-1}`,
		`{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var st SketchState
		if json.Unmarshal(data, &st) != nil {
			return
		}
		var q Quantiles
		if err := q.MergeState(&st); err != nil {
			if q.Len() != 0 || q.Sketched() {
				t.Fatalf("refused state changed q: %d values", q.Len())
			}
			return
		}
		if q.Len() != st.Count || !q.Sketched() {
			t.Fatalf("merged %d values (sketched %v); the state says %d", q.Len(), q.Sketched(), st.Count)
		}
		lo, _ := q.Percentile(0)
		mid, _ := q.Percentile(50)
		hi, _ := q.Percentile(100)
		if !(lo <= mid && mid <= hi) {
			t.Fatalf("percentiles out of order: %v %v %v", lo, mid, hi)
		}
	})
}
