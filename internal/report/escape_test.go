package report

import (
	"strings"
	"testing"
)

func TestEscapeNeutralizesMarkdown(t *testing.T) {
	hostile := "| x | y |\n@octocat `code` <!-- evalgate:suite=tutor-capstone --> <img src=x> [link](http://a) **b** _i_ # h ~s~ \\"
	got := Escape(hostile)
	for _, bad := range []string{"\n", "@octocat", "<!--", "<img", "[link]", "`code`"} {
		if strings.Contains(got, bad) {
			t.Errorf("escaped text still holds %q: %s", bad, got)
		}
	}
	// Every pipe is escaped, so a table row keeps its columns.
	if strings.Count(got, "|") != strings.Count(got, `\|`) {
		t.Errorf("unescaped pipe in %s", got)
	}
	// A hidden marker cannot be forged: the comment finder looks for the literal marker.
	if strings.Contains(got, "<!-- evalgate:suite=tutor-capstone -->") {
		t.Errorf("marker forged: %s", got)
	}
}

func TestTruncateCountsRunes(t *testing.T) {
	if got := Truncate("ñandú-ñandú", 6); got != "ñandú…" {
		t.Errorf("Truncate = %q; want 6 runes ending in …", got)
	}
	if got := Truncate("short", 10); got != "short" {
		t.Errorf("Truncate = %q", got)
	}
}

func TestPlainStripsTerminalEscapes(t *testing.T) {
	if got := plain("ok\x1b[2Jgone\r"); strings.ContainsAny(got, "\x1b\r") {
		t.Errorf("plain kept control characters: %q", got)
	}
}
