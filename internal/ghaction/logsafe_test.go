package ghaction

import (
	"bytes"
	"strings"
	"testing"
)

// hostile is text a model output or a file could hold; each line would be a workflow
// command if written to the log as is.
var hostile = []string{
	"::set-output name=verdict::pass",
	"  ::add-mask::x",
	"\t::stop-commands::tok",
	"\u00a0\u3000::error::fake",
	"##[error]old form",
	"::",
}

func TestLogWriterEscapesCommands(t *testing.T) {
	t.Parallel()
	in := "ok line\n" + strings.Join(hostile, "\n") + "\r::warning::after CR\nscore 0.91 :: fine\n"
	// Written whole, byte by byte, and in odd pieces: the same result.
	for _, chunk := range []int{len(in), 1, 2, 5} {
		var out bytes.Buffer
		l := LogWriter(&out)
		for i := 0; i < len(in); i += chunk {
			if _, err := l.Write([]byte(in[i:min(i+chunk, len(in))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Flush(); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		for _, line := range strings.FieldsFunc(got, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if startsCommand([]byte(line)) {
				t.Errorf("chunk %d: line %q would be a workflow command", chunk, line)
			}
		}
		if !strings.Contains(got, `\::set-output name=verdict::pass`) || !strings.Contains(got, "score 0.91 :: fine\n") || !strings.HasPrefix(got, "ok line\n") {
			t.Errorf("chunk %d: output changed more than needed:\n%q", chunk, got)
		}
	}
}

func TestLogWriterFlushesAShortLastLine(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{":": ":", "::": `\::`, "  ": "  ", "ab": "ab"} {
		if got := EscapeLogLines(in); got != want {
			t.Errorf("EscapeLogLines(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzLogWriter(f *testing.F) {
	for _, h := range hostile {
		f.Add(h, 3)
	}
	f.Add("a\n::b\r\n  ##[c", 1)
	f.Fuzz(func(t *testing.T, s string, chunk int) {
		chunk = max(1, chunk%16+1)
		var out bytes.Buffer
		l := LogWriter(&out)
		for i := 0; i < len(s); i += chunk {
			l.Write([]byte(s[i:min(i+chunk, len(s))]))
		}
		l.Flush()
		for _, line := range strings.FieldsFunc(out.String(), func(r rune) bool { return r == '\n' || r == '\r' }) {
			if startsCommand([]byte(line)) {
				t.Fatalf("line %q of %q would be a workflow command", line, s)
			}
		}
		// Nothing but the escapes is added.
		if got := strings.ReplaceAll(out.String(), `\`, ""); got != strings.ReplaceAll(s, `\`, "") {
			t.Fatalf("text changed: %q -> %q", s, out.String())
		}
	})
}

// EscapeLogLines returns s with every line that would start a workflow command
// escaped as LogWriter does, for text written to the log in one piece.
func EscapeLogLines(s string) string {
	var b bytes.Buffer
	l := LogWriter(&b)
	_, _ = l.Write([]byte(s))
	_ = l.Flush()
	return b.String()
}
