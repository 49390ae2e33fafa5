package github

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	t.Parallel()
	const note = "\n[cut]"
	tests := []struct {
		name  string
		in    string
		limit int
		want  string
	}{
		{"fits", "abc", 3, "abc"},
		{"cut at the last line end", "line one\nline two\nline three", 20, "line one\n[cut]"},
		{"no line end: cut anywhere", strings.Repeat("a", 30), 16, strings.Repeat("a", 10) + note},
		{"never inside a rune", strings.Repeat("é", 10), 10, "éé" + note},
		{"open code fence closed", "```\n" + strings.Repeat("code\n", 8), 26, "```\ncode\ncode\n```" + note},
		{"open details closed", "<details>\n" + strings.Repeat("row\n", 10), 34, "<details>\nrow\n</details>" + note},
		{"limit below the note", "abcdefgh", 3, "\n[c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Truncate(tt.in, tt.limit, note)
			if got != tt.want {
				t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
			}
			if len(got) > tt.limit {
				t.Errorf("result is %d bytes, over the limit %d", len(got), tt.limit)
			}
		})
	}
}

// FuzzTruncate checks the limit and UTF-8 validity for any input.
func FuzzTruncate(f *testing.F) {
	f.Add("| a | b |\n| - | - |\n<details>\n```\nx\n", 30)
	f.Add(strings.Repeat("ü\n", 100), 50)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit = 40 + abs(limit)%400
		if !utf8.ValidString(s) {
			return
		}
		got := Truncate(s, limit, TruncationNote[:30])
		if len(got) > limit {
			t.Errorf("%d bytes, limit %d", len(got), limit)
		}
		if !utf8.ValidString(got) {
			t.Errorf("invalid UTF-8: %q", got)
		}
		if len(s) <= limit && got != s {
			t.Errorf("changed a text that fits")
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
