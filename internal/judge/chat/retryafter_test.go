package chat

import (
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "3"}, 3 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond},
		{"milliseconds header", map[string]string{"Retry-After-Ms": "20"}, 20 * time.Millisecond},
		// The HTTP date is 10 s after now.
		{"http date", map[string]string{"Retry-After": "Thu, 02 Jan 2025 03:04:15 GMT"}, 10 * time.Second},
		{"date in the past", map[string]string{"Retry-After": "Thu, 02 Jan 2025 03:00:00 GMT"}, 0},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0},
		{"negative", map[string]string{"Retry-After": "-1"}, 0},
		// 1e10 s and 1e300 ms are more nanoseconds than a Duration holds (2^63-1):
		// the longest Duration, never a wrapped negative one.
		{"seconds past a Duration", map[string]string{"Retry-After": "10000000000"}, math.MaxInt64},
		{"milliseconds past a Duration", map[string]string{"Retry-After-Ms": "1e300"}, math.MaxInt64},
		{"more digits than a float holds", map[string]string{"Retry-After": strings.Repeat("9", 400)}, math.MaxInt64},
		// Not delay-seconds (RFC 9110): unusable, as garbage is.
		{"infinite", map[string]string{"Retry-After": "Inf"}, 0},
		{"not a number", map[string]string{"Retry-After": "NaN"}, 0},
		{"infinite ms", map[string]string{"Retry-After-Ms": "+Inf"}, 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := parseRetryAfter(h, now); got != tt.want {
			t.Errorf("%s: parseRetryAfter = %s; want %s", tt.name, got, tt.want)
		}
	}
}

func TestDefaultBackoffBounds(t *testing.T) {
	t.Parallel()
	// Retry r waits between half and all of 0.5 s × 2^r, capped at 8 s.
	for r, full := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second} {
		for range 50 {
			if d := DefaultBackoff(r); d < full/2 || d > full {
				t.Fatalf("DefaultBackoff(%d) = %s; want within [%s, %s]", r, d, full/2, full)
			}
		}
	}
	if d := DefaultBackoff(100); d > 8*time.Second {
		t.Errorf("DefaultBackoff(100) = %s; the cap must hold for any retry number", d)
	}
}

// FuzzParseRetryAfter: a server's Retry-After and Retry-After-Ms (outside input) never
// panic and never give a negative wait; delay-seconds past the cap always read as past
// it, however many digits they have.
func FuzzParseRetryAfter(f *testing.F) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, seed := range [][2]string{ // Retry-After, Retry-After-Ms
		{"3", ""}, {"0.5", "20"}, {"10000000000", "1e300"},
		{"Thu, 02 Jan 2025 03:04:15 GMT", ""}, {"Inf", "NaN"}, {"-1", "-0"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, secs, ms string) {
		h := http.Header{}
		h.Set("Retry-After", secs)
		h.Set("Retry-After-Ms", ms)
		d := parseRetryAfter(h, now)
		if d < 0 {
			t.Fatalf("Retry-After %q, Retry-After-Ms %q: negative wait %d", secs, ms, d)
		}
		if ms != "" {
			return // it may win
		}
		if strings.Trim(secs, "0123456789") == "" && len(strings.TrimLeft(secs, "0")) > 3 && d <= maxRetryAfter { // at least 1000 s
			t.Fatalf("Retry-After %q reads as %s, within the cap", secs, d)
		}
	})
}
