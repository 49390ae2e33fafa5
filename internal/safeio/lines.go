package safeio

import (
	"bufio"
	"errors"
	"io"
)

// Lines reads a stream line by line with a cap per line, so a multi-gigabyte line
// without a newline is refused after max bytes instead of read into memory.
//
//	ls := safeio.NewLines(r, name, safeio.MaxLineBytes)
//	for ls.Next() {
//		use(ls.Line(), ls.Bytes())
//	}
//	if err := ls.Err(); err != nil { ... }
type Lines struct {
	r    *bufio.Reader
	name string
	max  int
	line int
	buf  []byte
	text []byte
	err  error
}

// NewLines reads r; name labels it in errors; max bounds one line (without its "\n").
func NewLines(r io.Reader, name string, max int) *Lines {
	return &Lines{r: bufio.NewReaderSize(r, 64<<10), name: name, max: max}
}

// Next advances to the next line; false at the end or on an error.
func (l *Lines) Next() bool {
	if l.err != nil {
		return false
	}
	l.line++
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		if len(l.buf)+len(chunk) > l.max+1 || (len(l.buf)+len(chunk) == l.max+1 && chunk[len(chunk)-1] != '\n') {
			l.err = Errorf(l.name, l.line, "", "line is longer than %s, the limit for one record", mib(int64(l.max)))
			return false
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			l.buf = append(l.buf, chunk...)
			continue
		}
		if len(l.buf) == 0 {
			l.text = chunk // no copy for a line that fits the buffer
		} else {
			l.buf = append(l.buf, chunk...)
			l.text = l.buf
		}
		if err != nil && err != io.EOF {
			var ie *InputError
			if errors.As(err, &ie) { // a cap of the reader below (Capped)
				l.err = err
			} else {
				l.err = Errorf(l.name, l.line, "", "cannot read: %v", unwrapPathErr(err))
			}
			return false
		}
		if len(l.text) > 0 && l.text[len(l.text)-1] == '\n' {
			l.text = l.text[:len(l.text)-1]
			return true
		}
		if err == io.EOF {
			if len(l.text) == 0 {
				l.err = io.EOF
				return false
			}
			return true // a last line without "\n"
		}
	}
}

// Bytes is the current line without its "\n". It is valid until the next call to Next.
func (l *Lines) Bytes() []byte { return l.text }

// Line is the current line's 1-based number.
func (l *Lines) Line() int { return l.line }

// Err is the error that stopped Next, or nil at a clean end.
func (l *Lines) Err() error {
	if l.err == io.EOF {
		return nil
	}
	return l.err
}
