package pricing_test

import (
	"testing"

	"github.com/evalgate/evalgate/internal/pricing"
)

// FuzzParse: a price file a config names is outside input; Parse must refuse what it
// cannot use with an error, never panic, and never return a table with a bad price.
func FuzzParse(f *testing.F) {
	f.Add([]byte("version: 1\ndate: \"2026-01-01\"\nmodels:\n  m: {input: 1, cached_input: 0.5, output: 2}\n"))
	f.Add([]byte("version: 2\ndate: \"2026-01-01\"\nmodels: {}\n"))
	f.Add([]byte("models: &a [*a]\n"))
	f.Add([]byte("version: 1\ndate: \"2026-01-01\"\nmodels:\n  m: {input: .nan, output: 1e999}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tb, err := pricing.Parse("f.yaml", data)
		if err != nil {
			return
		}
		for id, p := range tb.Models {
			if !(p.Input >= 0 && p.Output >= 0 && p.Input <= pricing.MaxPrice && p.Output <= pricing.MaxPrice) {
				t.Errorf("model %q: accepted price %+v", id, p)
			}
		}
	})
}
