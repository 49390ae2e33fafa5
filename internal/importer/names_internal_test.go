package importer

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Ident gives a name back as it is exactly when making it character by character would
// give the same name, and names the doc comment's examples as it says.
func TestIdentKeepsIdentifiers(t *testing.T) {
	for name, want := range map[string]string{
		"Tone Score": "tone_score", "pass@1": "pass_1", "3way": "m_3way", "": "score", "@@": "score",
		"icontains": "icontains", "exact_match": "exact_match", "a__b": "a_b", "a_": "a", "_a": "a",
		strings.Repeat("x", 65): strings.Repeat("x", 64),
	} {
		if got := Ident(name); got != want {
			t.Errorf("Ident(%q) = %q; want %q", name, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab_z09A-@ é"
	for range 200000 {
		b := make([]byte, r.IntN(70))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		name := string(b)
		if isIdent(name) != (identOf(name) == name) {
			t.Fatalf("%q: isIdent %v, identOf gives %q", name, isIdent(name), identOf(name))
		}
	}
}
