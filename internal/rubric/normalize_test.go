package rubric

import (
	"fmt"
	"strings"
	"testing"
)

// referenceMiss is normalizer.miss as it was before it stopped allocating: the
// definition the faster one must match for every input (TestNormalizerMatchesReference,
// FuzzNormalizerMatchesReference).
func referenceMiss(n normalizer, output string, expected []string) string {
	apply := func(s string) string {
		if n.trim {
			s = strings.TrimSpace(s)
		}
		if n.lower {
			s = strings.ToLower(s)
		}
		if n.stripPeriod {
			s = strings.TrimSuffix(s, ".")
		}
		return s
	}
	out := apply(output)
	if n.substring {
		if len(expected) == 0 {
			return "no expected text"
		}
		for _, e := range expected {
			if !strings.Contains(out, apply(e)) {
				return fmt.Sprintf("output does not contain %q", e)
			}
		}
		return ""
	}
	for _, e := range expected {
		if out == apply(e) {
			return ""
		}
	}
	return "output is not equal to any expected value"
}

// normalizerFlags is every combination of the four steps, as bits 0–3 of flags.
func normalizerFlags(flags uint8) normalizer {
	return normalizer{trim: flags&1 != 0, lower: flags&2 != 0, stripPeriod: flags&4 != 0, substring: flags&8 != 0}
}

// normalizerCases are outputs and expected strings where lowercasing, trimming and the
// period are easy to get wrong: runes whose lowercase has another UTF-8 length (İ
// U+0130 → i, the Kelvin sign U+212A → k, Ω U+2126 → ω), invalid UTF-8 (each bad byte
// lowercases to U+FFFD), Unicode spaces trimmed, periods after the lowercasing.
var normalizerCases = []struct {
	output   string
	expected []string
}{
	{"Ate.", []string{"ate"}},
	{"  Ate.  ", []string{"ATE."}},
	{`{"english": "Ate.", "spanish": "Comió."}`, []string{"ate", "comió"}},
	{"Encontró la llave.", []string{"encontró", "ENCONTRÓ"}},
	{"Encontró la llave.", []string{"encontro"}},
	{"İstanbul", []string{"istanbul", "i̇stanbul"}},
	{"\u212A elvin", []string{"k elvin", "K ELVIN"}},
	{"\u2126hm", []string{"ωhm", "Ωhm"}},
	{"ΣΊΣΥΦΟΣ", []string{"σίσυφοσ", "σίσυφος"}},
	{"straße STRASSE ẞ", []string{"straße", "strasse", "ß"}},
	{"bad \xff byte", []string{"bad \ufffd byte", "BAD \xff BYTE", "bad \xfe byte"}},
	{"cut \xc3", []string{"\ufffd", "cut \xc3"}},
	{"\xc3\xa9\xc3", []string{"é\ufffd", "É"}},
	{"\ufffd literal", []string{"\ufffd"}},
	{"\u00a0\u2003Spaced\u3000", []string{"spaced"}},
	{"Two periods..", []string{"two periods.", "two periods"}},
	{"Ended.", []string{"ended.", "Ended", "ENDED.."}},
	{".", []string{"", "."}},
	{"", []string{""}},
	{"", nil},
	{"Anything", nil},
	{"ǅemal ǈ ǋ", []string{"ǆemal", "ǉ ǌ"}},
	{"ﬃ ﬁ", []string{"ﬃ", "ffi"}},
}

// TestNormalizerMatchesReference: the allocation-free normalizer gives the reference's
// answer (and message) on every case under every combination of steps.
func TestNormalizerMatchesReference(t *testing.T) {
	for flags := uint8(0); flags < 16; flags++ {
		n := normalizerFlags(flags)
		for _, c := range normalizerCases {
			want := referenceMiss(n, c.output, c.expected)
			if got := n.miss(c.output, c.expected); got != want {
				t.Errorf("%+v: miss(%q, %q) = %q; want %q", n, c.output, c.expected, got, want)
			}
			for _, e := range c.expected { // each expected alone, too: every pair compared
				want := referenceMiss(n, c.output, []string{e})
				if got := n.miss(c.output, []string{e}); got != want {
					t.Errorf("%+v: miss(%q, [%q]) = %q; want %q", n, c.output, e, got, want)
				}
			}
		}
	}
}

// FuzzNormalizerMatchesReference compares the two on any output, two expected strings
// and any combination of steps.
//
//	go test -run x -fuzz FuzzNormalizerMatchesReference ./internal/rubric
func FuzzNormalizerMatchesReference(f *testing.F) {
	for i, c := range normalizerCases {
		e1, e2 := "", ""
		if len(c.expected) > 0 {
			e1 = c.expected[0]
		}
		if len(c.expected) > 1 {
			e2 = c.expected[1]
		}
		f.Add(c.output, e1, e2, uint8(i%16))
	}
	f.Fuzz(func(t *testing.T, output, e1, e2 string, flags uint8) {
		n := normalizerFlags(flags)
		for _, exp := range [][]string{nil, {e1}, {e1, e2}} {
			if got, want := n.miss(output, exp), referenceMiss(n, output, exp); got != want {
				t.Fatalf("%+v: miss(%q, %q) = %q; want %q", n, output, exp, got, want)
			}
		}
	})
}

// TestNormalizerAllocs: a match (the usual case) allocates nothing, on ASCII and on
// non-ASCII text, for contains and exact; a miss only its message.
func TestNormalizerAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop its buffers: allocation counts mean nothing under -race")
	}
	contains := newNormalizer(nil, true)
	exact := newNormalizer(nil, false)
	ascii := `{"english": "Ate.", "spanish": "Comió.", "explanation": "Irregular Past Simple of EAT."}`
	for _, tc := range []struct {
		name     string
		n        normalizer
		output   string
		expected []string
	}{
		{"contains ASCII", contains, "  The Answer Is PARIS.  ", []string{"Paris", "THE ANSWER"}},
		{"contains JSON output", contains, ascii, []string{"Ate", "eat"}},
		{"contains non-ASCII", contains, "Encontró la LLAVE debajo del árbol.", []string{"ENCONTRÓ", "árbol"}},
		{"contains invalid UTF-8", contains, "Encontró \xff", []string{"ENCONTRÓ \ufffd"}},
		{"exact ASCII", exact, "Paris.", []string{"Lyon", "PARIS"}},
		{"exact non-ASCII", exact, " Comió. ", []string{"comio", "COMIÓ"}},
	} {
		if why := tc.n.miss(tc.output, tc.expected); why != "" {
			t.Fatalf("%s: does not match (%s); the case must be a match", tc.name, why)
		}
		if a := testing.AllocsPerRun(200, func() { tc.n.miss(tc.output, tc.expected) }); a != 0 {
			t.Errorf("%s: %v allocations per call; want 0", tc.name, a)
		}
		// The matching alone, on a miss too.
		missing := append([]string{"ñandú"}, tc.expected...)
		if a := testing.AllocsPerRun(200, func() { tc.n.firstMiss(tc.output, missing) }); a != 0 {
			t.Errorf("%s, missing: %v allocations per call; want 0", tc.name, a)
		}
	}
}

// BenchmarkContainsNormalize compares the reference (strings.ToLower per call) with the
// allocation-free normalizer on the benchmark's outputs: an English/Spanish JSON answer
// (non-ASCII) and an ASCII one, two expected strings each.
//
//	go test -run x -bench ContainsNormalize -benchmem -count 5 ./internal/rubric
func BenchmarkContainsNormalize(b *testing.B) {
	n := newNormalizer(nil, true)
	for _, c := range []struct {
		name     string
		output   string
		expected []string
	}{
		{"ascii", `{"english": "She Has Written.", "spanish": "Ella ha escrito.", "explanation": "Present perfect of WRITE: has + past participle; this form is common in everyday speech"}`, []string{"has", "written"}},
		{"nonascii", `{"english": "He Found It.", "spanish": "Encontró la llave.", "explanation": "Irregular past simple of FIND; the Spanish preterite encontró carries the accent"}`, []string{"found", "Encontró"}},
	} {
		b.Run("reference/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				referenceMiss(n, c.output, c.expected)
			}
		})
		b.Run("pooled/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n.miss(c.output, c.expected)
			}
		})
	}
}
