package report

import (
	"strings"
	"testing"

	"github.com/rivo/uniseg"

	"github.com/evalgate/evalgate/internal/gate"
)

// Cells with emoji (two columns, some made of several code points), CJK and combining
// accents: the table is measured in display columns, so its borders line up.
func TestFitTableDisplayWidth(t *testing.T) {
	t.Parallel()
	cols := []column{{head: "item"}, {head: "why", fit: wrap}, {head: "output", fit: cut, optional: true}}
	rows := [][]string{
		{"héllo-👍", "⚠️ the answer is missing the Spanish gloss and the explanation runs long", "日本語の答え 🇫🇷 and more text that does not fit"},
		{"e-01", "ok", "cafe\u0301 ⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️⚠️"},
	}
	for _, width := range []int{40, 60, 80, 200} {
		var b strings.Builder
		fitTable(&b, cols, rows, width)
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		first := uniseg.StringWidth(lines[0])
		for _, l := range lines {
			if w := uniseg.StringWidth(l); w != first || w > width {
				t.Errorf("width %d: line is %d columns (first %d): %s", width, w, first, l)
			}
		}
		if !strings.Contains(b.String(), "| héllo-👍 ") {
			t.Errorf("width %d: the item id is cut:\n%s", width, b.String())
		}
	}
}

// At a width only keep columns and narrow ones could fill, the optional column goes.
func TestFitTableDropsOptional(t *testing.T) {
	t.Parallel()
	cols := []column{{head: "item"}, {head: "why", fit: wrap}, {head: "output", fit: cut, optional: true}}
	rows := [][]string{{"an-item-id-that-is-long", "because the output is wrong", "the output"}}
	var b strings.Builder
	fitTable(&b, cols, rows, 40)
	if strings.Contains(b.String(), "| output") || !strings.Contains(b.String(), "an-item-id-that-is-long") {
		t.Errorf("want the output column left out and the id whole:\n%s", b.String())
	}
}

func TestWrapAndCut(t *testing.T) {
	t.Parallel()
	tests := []struct {
		got, want string
	}{
		{strings.Join(wrapWidth("output does not contain spoke", 16, 0), "/"), "output does not/contain spoke"},
		{strings.Join(wrapWidth("abcdefghij", 4, 0), "/"), "abcd/efgh/ij"},
		{strings.Join(wrapWidth("one two three four five six", 8, 2), "/"), "one two/three…"},
		{cutWidth("👍👍👍", 4), "👍…"},
		{cutLeftWidth("examples/tutor/suite.yaml:16", 15), "…/suite.yaml:16"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// Colours appear only when asked for: with Color off (a pipe, or NO_COLOR) the output
// has no escape sequence at all.
func TestTerminalColor(t *testing.T) {
	t.Parallel()
	r := &Report{Suite: "s", Verdict: gate.Verdict{Status: gate.Fail, Reason: "x"}, ScoringSystem: "scoringSystem/1.0.0", GradingSystem: "gradingSystem/1.0.0"}
	var plainOut, colored strings.Builder
	if err := r.WriteTerminal(&plainOut, Terminal{}); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteTerminal(&colored, Terminal{Color: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plainOut.String(), "\x1b") {
		t.Errorf("colour off, yet escapes:\n%q", plainOut.String())
	}
	if !strings.Contains(colored.String(), ansiRed+"✗") {
		t.Errorf("colour on: want the fail mark in red:\n%q", colored.String())
	}
	if ansi.ReplaceAllString(colored.String(), "") != plainOut.String() {
		t.Errorf("colour changes more than the colours:\n%s\n%s", colored.String(), plainOut.String())
	}
}
