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
