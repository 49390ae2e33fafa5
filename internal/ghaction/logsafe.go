package ghaction

import (
	"bytes"
	"io"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The runner reads a log line as a workflow command when, after leading whitespace, it
// starts with one of these: "::error::…", "::add-mask::…", "::stop-commands::…", or
// the older "##[command]…" form.
// https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions
var commandPrefixes = [][]byte{[]byte("::"), []byte("##[")}

// maxCommandPrefix is the length of the longest prefix.
const maxCommandPrefix = 3

// LogWriter returns a writer for free text in the action's log (what the check writes
// on stderr, for instance), which may hold text taken from model outputs or files. A
// line that would start with a workflow command after leading whitespace gets a
// backslash in front, so such text can never issue one ("\::set-output …" is shown,
// not obeyed). Workflow commands evalgate issues itself go to the log directly, not
// through it. Call Flush at the end to write a last line without a line end.
func LogWriter(w io.Writer) *SafeLog { return &SafeLog{w: w} }

// SafeLog is the writer LogWriter returns; safe for concurrent use.
type SafeLog struct {
	mu      sync.Mutex
	w       io.Writer
	head    []byte // the start of the current line, while it may still begin a command
	midLine bool   // the current line's start is decided and written
}

// Write implements io.Writer.
func (l *SafeLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		end := bytes.IndexAny(p, "\r\n") + 1 // 0: no line end in p
		chunk := p
		if end > 0 {
			chunk = p[:end]
		}
		p = p[len(chunk):]
		if l.midLine {
			if _, err := l.w.Write(chunk); err != nil {
				return n - len(p) - len(chunk), err
			}
		} else {
			l.head = append(l.head, chunk...)
			if end == 0 && undecided(l.head) {
				continue
			}
			if err := l.writeHead(); err != nil {
				return n - len(p), err
			}
		}
		l.midLine = end == 0
	}
	return n, nil
}

// Flush writes a line start still held back.
func (l *SafeLog) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.head) == 0 {
		return nil
	}
	l.midLine = true
	return l.writeHead()
}

// writeHead writes the held line start, escaped if it begins a command.
func (l *SafeLog) writeHead() error {
	head := l.head
	l.head = nil
	if startsCommand(head) {
		head = append([]byte{'\\'}, head...)
	}
	_, err := l.w.Write(head)
	return err
}

// undecided reports whether line (no line end yet) is too short to tell whether it
// starts a command: only whitespace, or fewer bytes after it than the longest prefix.
func undecided(line []byte) bool {
	rest := trimSpace(line)
	if len(rest) > 0 && !utf8.FullRune(rest) {
		return true // may be white space still
	}
	if len(rest) >= maxCommandPrefix {
		return false
	}
	for _, p := range commandPrefixes {
		if bytes.HasPrefix(p, rest) {
			return true
		}
	}
	return false
}

func startsCommand(line []byte) bool {
	rest := trimSpace(line)
	for _, p := range commandPrefixes {
		if bytes.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// trimSpace drops leading white space, Unicode's included, as the runner does; an
// incomplete UTF-8 sequence at the end is kept, as it may be white space still.
func trimSpace(b []byte) []byte {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if !unicode.IsSpace(r) && r != '\uFEFF' { // RuneError for an incomplete sequence
			return b
		}
		b = b[size:]
	}
	return b
}
