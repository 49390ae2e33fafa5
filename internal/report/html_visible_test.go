package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// The HTML report shows untrusted text (ids, tags, prompts, outputs, reasons) as every
// other renderer does: a bidi control ("Trojan Source" reordering) becomes a visible
// U+XXXX and a control character \xNN, in the embedded data the script draws from and
// in the rows written for a reader without script. A page that kept U+202E would show
// "bidi‮evil" as "bidilive" reversed, unlike the comment and the terminal.
func TestHTMLShowsBidiAndControlCharactersVisibly(t *testing.T) {
	r := &Report{Suite: "s", Summary: Summary{Items: 1, Runs: 1}, Dimensions: []Dimension{{Name: "d", Weight: 1}},
		Items: []Item{{ID: "bidi\u202eevil\u202c", Tags: []string{"t\u2066ag"}, Prompt: "ask\u200f", Got: "out\u2067put\x1b[2J",
			Why: "why\u202d", Notes: map[string]string{"d": "note\u2068"}, Weighted: []KV{{"d", 0.0}}}}}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	noHidden(t, page, false)
	for _, want := range []string{"bidiU+202EevilU+202C", "tU+2066ag", "askU+200F", `outU+2067put\\x1b[2J`, "whyU+202D", "noteU+2068"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
}

// noHidden fails the test for each character Visible would have shown (a carriage
// return aside) that text holds, and for U+FFFD too when fffd is set.
func noHidden(t *testing.T, text string, fffd bool) {
	t.Helper()
	for i := 0; i < len(text); {
		c, size := utf8.DecodeRuneInString(text[i:])
		if (hidden(c, size) && c != '\r') || (fffd && c == '\uFFFD') {
			t.Errorf("the text holds %U at byte %d: …%s…", c, i, text[max(0, i-40):min(len(text), i+40)])
		}
		i += size
	}
}
