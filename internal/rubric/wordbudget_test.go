package rubric

import (
	"strings"
	"testing"
)

// The expected counts are what node prints for JSON.stringify(s).split(/\s+/).length.
func TestJSSplitCount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 1},
		{"a", 1},
		{"a b", 2},
		{"a  \t\n b", 2},
		{" a b ", 4},
		{"a b ", 3},
		{"\n", 2},
		{"a\u00a0b", 2},        // no-break space is \s in JavaScript
		{"a\u2003b\u3000c", 3}, // em space, ideographic space
		{"a\ufeffb", 2},        // BOM is \s in JavaScript, not in Go's unicode.IsSpace
		{"a\u0085b", 1},        // NEL is not \s in JavaScript
		{"a\u200bb", 1},        // zero-width space is not \s
	} {
		if got := jsSplitCount(tc.in); got != tc.want {
			t.Errorf("jsSplitCount(%q) = %d; want %d", tc.in, got, tc.want)
		}
	}
}

func TestWordBudgetCount(t *testing.T) {
	thirty := strings.TrimSpace(strings.Repeat("word ", 30))
	for _, tc := range []struct {
		count, text string
		pass        bool
	}{
		{"", thirty, true},
		{"fields", " " + thirty + " ", true}, // 30 runs of non-space
		{"js_split", thirty, true},
		{"js_split", " " + thirty, false}, // 31: the empty string before the leading space
		{"js_split", thirty + "\n", false},
	} {
		d := &Dimension{Name: "words", Scorer: "word_budget", MaxWords: 30, Count: tc.count}
		sc, err := registry["word_budget"].factory(d, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := sc.Score(&Input{Text: tc.text})
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Norm == 1; got != tc.pass {
			t.Errorf("count %q, %q: pass = %v; want %v (%s)", tc.count, tc.text, got, tc.pass, v.Note)
		}
	}
	d := &Dimension{Name: "words", Scorer: "word_budget", MaxWords: 30, Count: "tokens"}
	if _, err := registry["word_budget"].factory(d, nil); err == nil || !strings.Contains(err.Error(), `count "tokens"; want fields`) {
		t.Errorf("unknown count: err = %v", err)
	}
}
