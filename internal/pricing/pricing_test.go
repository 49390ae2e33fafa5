package pricing_test

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/evalgate/evalgate/internal/pricing"
)

func TestBuiltinTable(t *testing.T) {
	t.Parallel()
	tb := pricing.Builtin()
	if tb.Version < 1 || tb.Date == "" || len(tb.Models) < 20 {
		t.Fatalf("built-in table v%d %q with %d models", tb.Version, tb.Date, len(tb.Models))
	}
	for _, provider := range []string{"openai", "anthropic", "google", "mistral"} {
		found := false
		for _, p := range tb.Models {
			found = found || p.Provider == provider
		}
		if !found {
			t.Errorf("no %s model in the built-in table", provider)
		}
		if tb.Sources[provider] == "" {
			t.Errorf("no source URL for %s", provider)
		}
	}
	if got, want := tb.Name(), "evalgate prices v"; !strings.HasPrefix(got, want) || !strings.Contains(got, tb.Date) {
		t.Errorf("Name() = %q", got)
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	tb := pricing.Builtin()
	tests := []struct{ model, want string }{
		{"gpt-4o-mini", "gpt-4o-mini"},
		{"GPT-4o-Mini", "gpt-4o-mini"},
		{"gpt-4o-mini-2024-07-18", "gpt-4o-mini"},
		{"openai/gpt-4o", "gpt-4o"},
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4-5"},
		{"claude-3-5-haiku@20241022", "claude-3-5-haiku"},
		{"models/gemini-2.5-flash", "gemini-2.5-flash"},
		{"openai:gpt-4o-mini", "gpt-4o-mini"}, // promptfoo's provider ids
		{"anthropic:messages:claude-3-5-haiku-20241022", "claude-3-5-haiku"},
		{"bedrock:anthropic.claude-3-haiku-20240307-v1:0", ""}, // never guessed
		{"no-such-model", ""},
		{"gpt-4o-audio-preview", ""}, // never priced as gpt-4o: only a date suffix is dropped
		{"", ""},
	}
	for _, tt := range tests {
		_, got, ok := tb.Lookup(tt.model)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tt.model, got, ok, tt.want)
		}
	}
}

func TestCost(t *testing.T) {
	t.Parallel()
	cached := 1.25
	p := pricing.Price{Input: 2.50, CachedInput: &cached, Output: 10.00}
	// 1,000 input tokens of which 400 cached, 200 output:
	//   600 × $2.50/M = $0.0015; 400 × $1.25/M = $0.0005; 200 × $10/M = $0.002
	//   total $0.004
	if got := p.Cost(pricing.Usage{Input: 1000, CachedInput: 400, Output: 200}); math.Abs(got-0.004) > 1e-12 {
		t.Errorf("cost = %v; want 0.004", got)
	}
	// No cached rate: the 400 cached tokens are billed as input:
	//   1,000 × $2.50/M = $0.0025; 200 × $10/M = $0.002; total $0.0045
	p.CachedInput = nil
	if got := p.Cost(pricing.Usage{Input: 1000, CachedInput: 400, Output: 200}); math.Abs(got-0.0045) > 1e-12 {
		t.Errorf("cost without a cached rate = %v; want 0.0045", got)
	}
}

func TestPricer(t *testing.T) {
	t.Parallel()
	pr := &pricing.Pricer{Table: pricing.Builtin(), DefaultModel: "gpt-4o-mini"}
	if m := pr.Model(""); m != "gpt-4o-mini" {
		t.Errorf("Model(\"\") = %q; want the default", m)
	}
	if m := (&pricing.Pricer{}).Model(" "); m != pricing.NoModel {
		t.Errorf("Model with no default = %q; want %q", m, pricing.NoModel)
	}
	if _, ok := pr.Cost("acme-7b", pricing.Usage{Input: 1}); ok {
		t.Error("an unknown model was priced")
	}
	if _, ok := pr.Cost(pricing.NoModel, pricing.Usage{Input: 1}); ok {
		t.Error("no model was priced")
	}
	// gpt-4o-mini: $0.15 input, $0.60 output per M: 1e6 × 0.15/1e6 + 1e6 × 0.60/1e6 = $0.75
	if c, ok := pr.Cost("gpt-4o-mini-2024-07-18", pricing.Usage{Input: 1e6, Output: 1e6}); !ok || math.Abs(c-0.75) > 1e-12 {
		t.Errorf("cost = %v, %v; want 0.75", c, ok)
	}
}

func TestConfigTable(t *testing.T) {
	t.Parallel()
	file := []byte("version: 3\ndate: \"2026-10-01\"\nmodels:\n  gpt-4o: {input: 2.00, output: 8.00}\n  Acme-7B: {input: 0.2, output: 0.6}\n")
	c := &pricing.Config{File: "negotiated.yaml", Models: map[string]pricing.Price{"acme-7b": {Input: 0.1, Output: 0.3}}}
	tb, err := c.Table("/repo/evalgate.yaml", "/repo", func(p string) ([]byte, error) {
		if p != "/repo/negotiated.yaml" {
			t.Errorf("read %q", p)
		}
		return file, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if p, _, _ := tb.Lookup("gpt-4o"); p.Input != 2.00 || p.CachedInput != nil {
		t.Errorf("gpt-4o from the file = %+v", p)
	}
	if p, _, _ := tb.Lookup("ACME-7b"); p.Input != 0.1 {
		t.Errorf("acme-7b inline = %+v; want the inline price over the file's", p)
	}
	if want := "negotiated.yaml v3 (2026-10-01) + pricing in evalgate.yaml"; !strings.HasSuffix(tb.Name(), want) {
		t.Errorf("Name() = %q; want it to end with %q", tb.Name(), want)
	}
	if p, _, _ := pricing.Builtin().Lookup("gpt-4o"); p.Input != 2.50 {
		t.Error("With changed the built-in table")
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ doc, want string }{
		{"version: 0\ndate: \"2026-01-01\"\nmodels: {}\n", "version is 0"},
		{"version: 1\ndate: yesterday\nmodels: {}\n", `date is "yesterday"`},
		{"version: 1\ndate: \"2026-01-01\"\nmodels:\n  m: {input: -1, output: 1}\n", `model "m": input is -1`},
		{"version: 1\ndate: \"2026-01-01\"\nmodels:\n  m: {input: 1, output: 1, cost: 3}\n", "cost"},
		{"version: 1\ndate: \"2026-01-01\"\nmodels:\n  M: {input: 1, output: 1}\n  m: {input: 1, output: 1}\n", "listed twice"},
	}
	for _, tt := range tests {
		_, err := pricing.Parse("p.yaml", []byte(tt.doc))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "p.yaml") {
			t.Errorf("Parse(%q) err = %v; want it to name p.yaml and say %q", tt.doc, err, tt.want)
		}
	}
}

func TestFormatUSD(t *testing.T) {
	t.Parallel()
	for x, want := range map[float64]string{0: "0.00", 1.12: "1.12", 0.84: "0.84", 12.345: "12.35", 0.0042: "0.0042", 0.000018: "0.000018", 0.05: "0.05", 0.0125: "0.013"} {
		if got := pricing.FormatUSD(x); got != want {
			t.Errorf("FormatUSD(%v) = %q; want %q", x, got, want)
		}
	}
	if got := pricing.Dollars(-0.28); got != "-$0.28" {
		t.Errorf("Dollars(-0.28) = %q", got)
	}
}

func TestBudget(t *testing.T) {
	t.Parallel()
	b, err := pricing.NewBudget(1.00)
	if err != nil {
		t.Fatal(err)
	}
	// Two calls of worst case $0.40 fit ($0.80 ≤ $1.00); a third would make $1.20.
	r1, err1 := b.Reserve(0.40)
	r2, err2 := b.Reserve(0.40)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if _, err := b.Reserve(0.40); !errors.Is(err, pricing.ErrBudget) {
		t.Fatalf("third reservation: err = %v; want ErrBudget", err)
	}
	// Refused once, refused always: even a call that would now fit does not start.
	r1.Settle(0.10)
	r2.Settle(0.10)
	if _, err := b.Reserve(0.01); !errors.Is(err, pricing.ErrBudget) {
		t.Errorf("after a refusal: err = %v; want ErrBudget", err)
	}
	if !b.Cut() || b.Calls() != 2 || math.Abs(b.Spent()-0.20) > 1e-12 {
		t.Errorf("cut %v, calls %d, spent %v; want true, 2, 0.20", b.Cut(), b.Calls(), b.Spent())
	}
	if _, err := pricing.NewBudget(0); err == nil {
		t.Error("a budget of 0 was accepted")
	}
	var none *pricing.Budget
	if _, err := none.Reserve(1e9); err != nil || none.Cut() {
		t.Error("a nil budget limited something")
	}
}

func TestBudgetConcurrent(t *testing.T) {
	t.Parallel()
	// 100 goroutines each try calls of worst case $0.03 that cost $0.02, under $1:
	// at every moment spent + in flight ≤ $1, so spent never passes $1.
	b, _ := pricing.NewBudget(1)
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				r, err := b.Reserve(0.03)
				if err != nil {
					return
				}
				r.Settle(0.02)
			}
		}()
	}
	wg.Wait()
	if s := b.Spent(); s > 1 {
		t.Errorf("spent %v > max 1", s)
	}
}

// A price that leaves out its input or output rate is refused, naming the model: the
// tokens would otherwise cost $0, less than the truth. A free model says 0.
func TestPriceWithoutARateIsRefused(t *testing.T) {
	for _, c := range []struct{ models, want string }{
		{"acme: {output: 4}", `model "acme": the price has no input rate`},
		{"acme: {input: 1, cached_input: 0.1}", `model "acme": the price has no output rate`},
		{"acme: {input: 0, output: 0}", ""},
	} {
		_, err := pricing.Parse("p.yaml", []byte("version: 1\ndate: 2026-11-25\nmodels:\n  "+c.models+"\n"))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.models, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v; want %q", c.models, err, c.want)
		}
	}
}

// A cap is 0 (none) or a positive amount up to 1e12: NaN and the infinities are no cap.
func TestValidCap(t *testing.T) {
	for x, want := range map[float64]bool{0: true, 0.01: true, 1e12: true, -1: false, 1e13: false, math.NaN(): false, math.Inf(1): false} {
		if got := pricing.ValidCap(x); got != want {
			t.Errorf("ValidCap(%v) = %v; want %v", x, got, want)
		}
	}
}
