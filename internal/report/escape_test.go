package report

import (
	"html"
	"regexp"
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
	if got := plain("ok\x1b[2Jgone\r"); strings.ContainsAny(got, "\x1b\r") || !strings.Contains(got, `\x1b`) {
		t.Errorf("plain kept control characters: %q", got)
	}
}

func TestVisible(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain ñandú 日本", "plain ñandú 日本"},
		{"tab\tand\nnewline", "tab\tand\nnewline"},
		{"esc\x1b[2Jgone", `esc\x1b[2Jgone`},
		{"cr\rbell\anul\x00del\x7f", `cr\x0dbell\x07nul\x00del\x7f`},
		{"c1 \u009b31m", `c1 \x9b31m`}, // CSI, two bytes in UTF-8, shown by its value
		{"broken \xff", `broken \xff`},
		{"bidi \u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c", "bidi U+202Eevil" + "U+202C U+2066xU+2069 U+200EU+200FU+061C"},
		{"tag \U000E0041\U000E007F", "tag U+E0041U+E007F"},
	} {
		if got := Visible(tc.in); got != tc.want {
			t.Errorf("Visible(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// TestEveryRendererShowsControls: markdown (comment, job summary) and the terminal
// table carry no raw control, bidi or tag character from untrusted text.
func TestEveryRendererShowsControls(t *testing.T) {
	hostile := "a\x1b[31mred\u202eevil\U000E0041\u009b"
	for name, got := range map[string]string{
		"markdown": Escape(hostile), "markdown truncated": EscapeTrunc(hostile, 80),
		"table": plain(hostile), "html": htmlEscape(hostile),
	} {
		for _, r := range []string{"\x1b", "\u202e", "\U000E0041", "\u009b"} {
			if strings.Contains(got, r) {
				t.Errorf("%s: raw %q in %q", name, r, got)
			}
		}
		if !strings.Contains(got, `x1b`) || !strings.Contains(got, "U+202E") || !strings.Contains(got, "U+E0041") {
			t.Errorf("%s: %q does not show the characters", name, got)
		}
	}
}

// TestCodeIsInertInMarkdown: GitHub goes on reading markdown inside inline HTML, so
// untrusted text in a <code> span of the comment (a proposed gate's item id, a printed
// command naming one) starts no link, image, emphasis, mention, code span or escape,
// and no line break in it ends the paragraph or quote to start a heading or list of
// its own; what the span shows is still the text itself, so a pasted command is whole.
func TestCodeIsInertInMarkdown(t *testing.T) {
	hostile := "x'\\'' [approve](https://evil.example) ![i](https://evil.example/p.png) *b* _i_ ~s~ `c` @octocat #1 | </code><script>alert(1)</script>\n\n# pwned\n> - [link](javascript:x) <!-- evalgate:suite=s -->"
	for name, got := range map[string]string{
		"code":      code(hostile),
		"codeSpans": codeSpans("run `evalgate run --only '" + strings.ReplaceAll(hostile, "`", "") + "'` now"),
	} {
		_, inner, _ := strings.Cut(got, "<code>")
		inner, _, _ = strings.Cut(inner, "</code>")
		bare := regexp.MustCompile(`&(#[0-9]+|lt|gt|amp);`).ReplaceAllString(inner, "")
		for _, bad := range []string{"\n", "\r", "[", "]", "!", "*", "_", "~", "`", "@", "#", "|", "\\", "<", ">", "&"} {
			if strings.Contains(bare, bad) {
				t.Errorf("%s: %q left raw in the code span %q", name, bad, inner)
			}
		}
		if name == "code" && html.UnescapeString(inner) != hostile {
			t.Errorf("%s: the span shows %q; want the text itself, %q", name, html.UnescapeString(inner), hostile)
		}
	}
}
