package chat

import (
	"net/http"
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
