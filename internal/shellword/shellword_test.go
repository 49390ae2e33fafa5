package shellword

import (
	"os/exec"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"baselines/tutor.jsonl", "baselines/tutor.jsonl"},
		{"a b", "'a b'"},
		{"*.jsonl", "'*.jsonl'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
	} {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s; want %s", tt.in, got, tt.want)
		}
	}
	if got := Flag("--out", "my file"); got != "--out 'my file'" {
		t.Errorf("Flag = %s", got)
	}
}

// Every quoted word reads back as the string through a real sh, and holds no backtick
// (the reports print commands in code spans, which a backtick would end).
func TestQuoteReadsBackThroughSh(t *testing.T) {
	for _, s := range []string{"a b", "it's", "x`y", "`", "``'`'", "$(touch PWNED) `id`", "*.jsonl", "tab\there", "new\nline", "'", ""} {
		q := Quote(s)
		if strings.Contains(q, "`") {
			t.Errorf("Quote(%q) = %s holds a backtick", s, q)
		}
		out, err := exec.Command("sh", "-c", "printf %s "+q).Output()
		if err != nil || string(out) != s {
			t.Errorf("sh read Quote(%q) = %s back as %q (%v)", s, q, out, err)
		}
	}
}
