package chat

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// maxRetryAfter is the longest server-requested wait we honour. A longer one usually
// means a quota is exhausted for the day, so retrying would only stall the run.
const maxRetryAfter = 2 * time.Minute

// parseRetryAfter reads Retry-After-Ms (OpenAI) or Retry-After (seconds or an HTTP
// date, RFC 9110 §10.2.3). It returns 0 when neither is usable.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// DefaultBackoff is the wait before retry number retry (0-based) when the server named
// none: 0.5 s doubling up to 8 s, with half of it random so that workers hit by the
// same 503 do not all come back at once.
func DefaultBackoff(retry int) time.Duration {
	d := 8 * time.Second
	if retry < 4 {
		d = 500 * time.Millisecond << retry
	}
	return d/2 + rand.N(d/2+1)
}
