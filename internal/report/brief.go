package report

import (
	"io"
	"strings"
)

// WriteBrief writes what a reader must see when the report itself went to a file: the
// headline and the score line, as the terminal report starts, and the warnings under
// them (not the notes). `check --out` prints it on stderr.
func (r *Report) WriteBrief(w io.Writer, t Terminal) error {
	var b strings.Builder
	width := t.width()
	r.headLines(t, func(s string) {
		for _, l := range wrapWidth(s, width, 0) {
			b.WriteString(l + "\n")
		}
	}, false)
	_, err := io.WriteString(w, b.String())
	return err
}

// headLines are the terminal report's first lines: the verdict in one sentence, the
// score line, then the notices (notes too, or the warnings alone).
func (r *Report) headLines(t Terminal, line func(string), notes bool) {
	hs := r.headlineStatus()
	line(t.paint(ansiBold+statusColor(hs), termIcon(hs)+" "+plain(r.headline())))
	line(r.scoreLine())
	for _, n := range r.Notices {
		switch {
		case n.Warn:
			line(t.paint(ansiYellow, "warning: "+plain(n.Text)))
		case notes:
			line("note: " + plain(n.Text))
		}
	}
}
