package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// A re-run's draw is part of the cache key, and a full run's key is the one earlier
// versions wrote: SHA-256 over the same JSON, with no "draw" field.
func TestCacheKeyDraw(t *testing.T) {
	p := Params{Temperature: 0, MaxTokens: 300}
	r := Request{ID: "q1", Task: "t", ReferenceAnswer: "ref", ProvidedContext: "ctx", CandidateAnswer: "out"}
	old := `{"v":1,"model":"m","template":"h","params":{"temperature":0,"top_p":0,"max_tokens":300,"seed":0},` +
		`"task":"t","reference_answer":"ref","provided_context":"ctx","candidate_answer":"out"}`
	sum := sha256.Sum256([]byte(old))
	if got, want := cacheKey("m", "h", p, r), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("a full run's key %s; want the earlier key %s", got, want)
	}
	r2, r3 := r, r
	r2.Draw, r3.Draw = 2, 3
	k1, k2, k3 := cacheKey("m", "h", p, r), cacheKey("m", "h", p, r2), cacheKey("m", "h", p, r3)
	if k1 == k2 || k2 == k3 || k1 == k3 {
		t.Errorf("keys of draws 0, 2, 3 of one output: %s %s %s; want three keys", k1[:8], k2[:8], k3[:8])
	}
}
