package cli

import (
	"strings"
	"testing"
)

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"1GiB": 1 << 30, "512MiB": 512 << 20, "2G": 2 << 30, "1.5GB": 1_500_000_000, "100000000": 100000000, " 64MiB ": 64 << 20} {
		got, err := parseBytes(in)
		if err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "-1GiB", "0", "1MiB", "1TB", "NaN", "nanGiB", "Inf", "-Inf"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q): no error", in)
		}
	}
	// NaN is no size at all, not a small one (it compares false with 0 and with 64 MiB).
	if _, err := parseBytes("NaN"); err == nil || !strings.HasPrefix(err.Error(), `invalid size "NaN"`) {
		t.Errorf("parseBytes(NaN): %v; want it called an invalid size", err)
	}
}

// FuzzParseBytes: a --max-memory value is refused or a size from 64 MiB to 2^50 bytes
// that prints back (formatBytes) as a value reading as itself.
func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"1GiB", "512MiB", "1.5GB", "100000000", " 64MiB ", "NaN", "Inf", "-1GiB", "0x1p30", "1e15", "1TB", "63.9MiB", "1_000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseBytes(s)
		if err != nil {
			return
		}
		if n < 64<<20 || n > 1<<50 {
			t.Fatalf("parseBytes(%q) = %d, outside [64MiB, 2^50]", s, n)
		}
		if back, err := parseBytes(formatBytes(n)); err != nil || back != n {
			t.Fatalf("parseBytes(%q) = %d prints as %q, which reads as %d, %v", s, n, formatBytes(n), back, err)
		}
	})
}
