package chat

import (
	"context"
	"testing"
	"time"
)

func TestLimiterSpacesRequests(t *testing.T) {
	t.Parallel()
	// 1200 requests/min is one every 50 ms with a burst of 1: the first call is free,
	// the next four wait about 4 × 50 ms = 200 ms in all.
	l := NewLimiter(1200, 0)
	start := time.Now()
	for range 5 {
		if err := l.Wait(context.Background(), 0); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el < 180*time.Millisecond {
		t.Errorf("5 requests at 1200/min took %s; want at least ~200ms", el)
	}
}

func TestLimiterTokens(t *testing.T) {
	t.Parallel()
	// 6000 tokens/min refills 100 tokens/s and holds at most 6000. Two 6000-token
	// requests: the first empties the bucket, the second would wait 60 s, so a 100 ms
	// context must end the wait.
	l := NewLimiter(0, 6000)
	if err := l.Wait(context.Background(), 6000); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := l.Wait(ctx, 6000); err == nil {
		t.Error("second full-minute request passed at once; want it held back")
	}
	// A request larger than a minute's allowance is clamped, not refused forever.
	big := NewLimiter(0, 10)
	if err := big.Wait(context.Background(), 1_000_000); err != nil {
		t.Errorf("oversized request: %v", err)
	}
}

func TestNilLimiter(t *testing.T) {
	t.Parallel()
	var l *Limiter
	if err := l.Wait(context.Background(), 10); err != nil {
		t.Errorf("nil limiter: %v", err)
	}
}

func TestEstimateTokens(t *testing.T) {
	t.Parallel()
	// 10 bytes → ceil(10/4) = 3 tokens, plus 1024 for the reply.
	if got := EstimateTokens("0123456789", 1024); got != 1027 {
		t.Errorf("EstimateTokens = %d; want 1027", got)
	}
}
