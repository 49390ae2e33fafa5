package chattest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"
)

// Asked counts how many times each key (a prompt, or a model and a prompt) was asked
// before, for handlers that answer a repeat differently. Safe for concurrent handlers;
// the zero value is ready.
type Asked struct {
	mu sync.Mutex
	n  map[string]int
}

// Next returns how many times key was asked before this call, and counts this one.
func (a *Asked) Next(key string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n = map[string]int{}
	}
	n := a.n[key]
	a.n[key]++
	return n
}

// Flip is a judge's noisy verdict on a 0..2 scale: truth, or, with probability p, one of
// the two other values (equally likely). The draw comes from a hash of the prompt and
// how many times it was asked before, so a test gets the same flips whatever the order
// of concurrent calls.
func Flip(truth, asked int, prompt string, p float64) int {
	h := sha256.Sum256([]byte(fmt.Sprintf("%d|%s", asked, prompt)))
	if float64(binary.BigEndian.Uint64(h[:8])>>11)/(1<<53) >= p {
		return truth
	}
	return (truth + 1 + int(h[8]&1)) % 3
}
