package shellword

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
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

// An id with a character no report shows as it is (a tab, newline, carriage return,
// ESC, bidi control, broken UTF-8) is printed with printf escapes: the word holds none
// of them, so the table and markdown reports (which show them as `\x1b`, `U+202E` or a
// space) print a command that still selects the item. It reads back through sh (dash
// here) and bash. The old Quote kept them raw inside the single quotes: a report
// showed 'esc\x1b[31m', which the shell reads as a backslash, x, 1, b.
func TestQuoteHiddenCharacters(t *testing.T) {
	for _, s := range []string{"tab\there", "new\nline", "cr\rx", "esc\x1b[31mred", "bell\ax",
		"bidi\u202eevil", "ls\u2028x", "tag\U000e0041x", "bad\xffutf8", "\t", "a\n\nb", "x\n'`%\\y",
		"\x01%s\x02", "ends in tab\t", "ends\r"} {
		q := Quote(s)
		for i := 0; i < len(q); {
			r, size := utf8.DecodeRuneInString(q[i:])
			if hidden(r, size) {
				t.Errorf("Quote(%q) = %q holds %q", s, q, q[i:i+size])
				break
			}
			i += size
		}
		for _, sh := range []string{"sh", "bash"} {
			out, err := exec.Command(sh, "-c", "printf %s "+q).Output()
			if err != nil || string(out) != s {
				t.Errorf("%s read Quote(%q) = %s back as %q (%v)", sh, s, q, out, err)
			}
		}
	}
	// A newline ending the word cannot come out of printf's command substitution: it
	// stays raw inside the quotes, and still reads back.
	if q := Quote("end\n"); q != "'end\n'" {
		t.Errorf("Quote(\"end\\n\") = %q", q)
	}
	// "a<TAB>b": a, then printf of the tab (011) and b (142).
	if q, want := Quote("a\tb"), `'a'"$(printf '\011\142')"''`; q != want {
		t.Errorf("Quote(a<TAB>b) = %s; want %s", q, want)
	}
}
