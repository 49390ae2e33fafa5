package chat

import (
	"errors"
	"math"
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
		if d, ok := delay(v, time.Millisecond); ok {
			return d
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if d, ok := delay(v, time.Second); ok {
		return d
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// delay reads a non-negative finite count of unit. One too long for a Duration is the
// longest Duration, so it stays beyond maxRetryAfter: converting it as it is would wrap
// to a negative wait, read as none given.
func delay(v string, unit time.Duration) (time.Duration, bool) {
	n, err := strconv.ParseFloat(v, 64)
	if errors.Is(err, strconv.ErrRange) && n > 0 {
		return math.MaxInt64, true // more digits than a float64 holds
	}
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || n < 0 { // "Inf" is not a delay
		return 0, false
	}
	if ns := n * float64(unit); ns < math.MaxInt64 { // float64(MaxInt64) is 2^63, one past it
		return time.Duration(ns), true
	}
	return math.MaxInt64, true
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
