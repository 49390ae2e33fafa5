package shellword

import "testing"

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
