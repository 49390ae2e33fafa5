package eval

import (
	"bytes"
	"os"
	"unicode/utf8"
)

// MaxLineBytes bounds one JSONL record (a model output included). Larger records are
// refused rather than read into memory without limit.
const MaxLineBytes = 16 << 20

// MaxFileBytes bounds one suite or results file.
const MaxFileBytes = 1 << 30

var bom = []byte{0xEF, 0xBB, 0xBF}

// readText reads a text file and checks what every evalgate input shares: not empty,
// UTF-8, no byte order mark, "\n" line endings. kind names the file in messages.
func readText(path, kind string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, Errorf(path, 0, "", "cannot read %s file: %v", kind, unwrapPathErr(err))
	}
	if st.IsDir() {
		return nil, Errorf(path, 0, "", "is a directory; want a %s file", kind)
	}
	if st.Size() > MaxFileBytes {
		return nil, Errorf(path, 0, "", "%s file is %d bytes; the limit is %d", kind, st.Size(), MaxFileBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Errorf(path, 0, "", "cannot read %s file: %v", kind, unwrapPathErr(err))
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
	if bytes.HasPrefix(data, bom) {
		return Errorf(path, 1, "", "file starts with a UTF-8 byte order mark; save it as UTF-8 without BOM")
	}
	line := 1
	for i := 0; i < len(data); {
		c := data[i]
		if c == '\n' {
			line++
			i++
			continue
		}
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
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return Errorf(path, line, "", "invalid UTF-8 at byte %d; a %s file is UTF-8 text", i, kind)
		}
		i += size
	}
	return nil
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
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
