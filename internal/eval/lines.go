package eval

import (
	"bytes"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/safeio"
)

// MaxLineBytes bounds one JSONL record (a model output included). Larger records are
// refused rather than read into memory without limit.
const MaxLineBytes = safeio.MaxLineBytes

var bom = []byte{0xEF, 0xBB, 0xBF}

// readText reads a regular text file whole, within safeio's cap, and checks what every
// evalgate input shares: not empty, UTF-8, no byte order mark, "\n" line endings. kind
// names the file in messages.
func readText(path, kind string) ([]byte, error) {
	data, err := safeio.ReadFile(path, kind, safeio.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if err := checkText(path, kind, data); err != nil {
		return nil, err
	}
	return data, nil
}

func checkText(path, kind string, data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return Errorf(path, 0, "", "%s file is empty", kind)
	}
	line := 1
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		text := data
		if i >= 0 {
			text, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if err := checkLine(path, kind, line, text); err != nil {
			return err
		}
		line++
	}
	return nil
}

// checkLine checks one line (without its "\n") of a text file.
func checkLine(path, kind string, line int, text []byte) error {
	if line == 1 && bytes.HasPrefix(text, bom) {
		return Errorf(path, 1, "", "file starts with a UTF-8 byte order mark; save it as UTF-8 without BOM")
	}
	if bytes.IndexByte(text, '\r') < 0 && bytes.IndexByte(text, 0) < 0 && utf8.Valid(text) {
		return nil // the usual line, checked by the vectorized scans; the loop below names a fault
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c == '\r' {
			return Errorf(path, line, "", "carriage return (CRLF line ending); evalgate reads \\n line endings only: convert the file (e.g. dos2unix)")
		}
		if c == 0 {
			return Errorf(path, line, "", "NUL byte; a %s file is UTF-8 text", kind)
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size <= 1 {
			return Errorf(path, line, "", "invalid UTF-8 at byte %d of the line; a %s file is UTF-8 text", i+1, kind)
		}
		i += size
	}
	return nil
}

// splitLines calls fn for every non-blank line with its 1-based number.
func splitLines(data []byte, fn func(line int, text []byte) error) error {
	n := 0
	for len(data) > 0 {
		n++
		i := bytes.IndexByte(data, '\n')
		var text []byte
		if i < 0 {
			text, data = data, nil
		} else {
			text, data = data[:i], data[i+1:]
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		if err := fn(n, text); err != nil {
			return err
		}
	}
	return nil
}
