package safeio

import (
	"fmt"
	"strings"
)

// InputError is bad input: a file evalgate cannot use as it is. The CLI prints it as
// `file:line:col: item "id": message` and exits with code 2.
type InputError struct {
	File string // path as the user gave it
	Line int    // 1-based; 0 when the problem is the whole file
	Col  int    // 1-based; 0 when unknown
	Item string // item id, when known
	Msg  string // lowercase, says what is wrong and what is allowed
}

func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Item != "" {
		fmt.Fprintf(&b, "item %q: ", e.Item)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errorf builds an *InputError.
func Errorf(file string, line int, item, format string, args ...any) *InputError {
	return &InputError{File: file, Line: line, Item: item, Msg: fmt.Sprintf(format, args...)}
}

// mib says a byte limit in MiB for messages.
func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
