// Package suggest finds the name a user probably meant when they typed an unknown one
// (a metric, a scorer, a config field, a file), for "did you mean" hints.
package suggest

import (
	"fmt"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Closest returns the choice nearest to word by edit distance (case-insensitive), or ""
// when none is near enough to be a likely typo: at most a third of the word's length
// (and at least 2) edits away. Ties go to the earlier choice. A choice that contains the
// word, or that the word contains, is also taken when it is the only one ("p50" for
// "latency_e2e_p50_ms").
func Closest(word string, choices []string) string {
	w := strings.ToLower(word)
	if w == "" {
		return ""
	}
	limit := max(2, len([]rune(w))/3)
	best, bestDist := "", limit+1
	for _, c := range choices {
		d := levenshtein.ComputeDistance(w, strings.ToLower(c))
		if d < bestDist && d < len([]rune(c)) { // never suggest a name that shares nothing
			best, bestDist = c, d
		}
	}
	if best != "" {
		return best
	}
	var contains []string
	for _, c := range choices {
		lc := strings.ToLower(c)
		if len(w) >= 3 && len(lc) >= 3 && (strings.Contains(lc, w) || strings.Contains(w, lc)) {
			contains = append(contains, c)
		}
	}
	if len(contains) == 1 {
		return contains[0]
	}
	return ""
}

// DidYouMean is `did you mean "x"? ` for the closest choice, or "" when there is none;
// it is meant to go right before a message's list of valid choices.
func DidYouMean(word string, choices []string) string {
	if c := Closest(word, choices); c != "" && c != word {
		return fmt.Sprintf("did you mean %q? ", c)
	}
	return ""
}
