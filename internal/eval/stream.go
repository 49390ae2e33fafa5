package eval

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/evalgate/evalgate/internal/safeio"
	"github.com/klauspost/compress/gzip"
)

// Compressed results: a results file named *.gz or *.zst is decompressed as it is
// read. It is streamed, never held whole: memory is bounded by the per-line cap and
// what the caller keeps, and time by safeio.MaxDecompressedBytes (a small file of
// compressed blank lines would otherwise read for hours).
const (
	extGzip = ".gz"
	extZstd = ".zst"
)

// Compressed reports whether a results file is read through a decompressor.
func Compressed(path string) bool {
	return strings.HasSuffix(path, extGzip) || strings.HasSuffix(path, extZstd)
}

// openResults opens a results file (a regular file only) and its decompressor.
func openResults(path string) (io.Reader, func(), error) {
	f, err := safeio.Open(path, "results")
	if err != nil {
		return nil, nil, err
	}
	switch {
	case strings.HasSuffix(path, extGzip):
		gz, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<16))
		if err != nil {
			f.Close()
			return nil, nil, Errorf(path, 0, "", "not a gzip file (%v); a results file named *.gz is gzip-compressed JSONL", err)
		}
		return safeio.Capped(gz, path, safeio.MaxDecompressedBytes), func() { gz.Close(); f.Close() }, nil
	case strings.HasSuffix(path, extZstd):
		zr, err := safeio.Zstd(bufio.NewReaderSize(f, 1<<16), path, safeio.MaxDecompressedBytes)
		if err != nil {
			f.Close()
			return nil, nil, err
		}
		return zr, func() { zr.Close(); f.Close() }, nil
	}
	return f, func() { f.Close() }, nil
}

// lineReader reads a JSONL stream one checked, non-blank line at a time, whatever its
// size: only the current line (at most MaxLineBytes) is held.
type lineReader struct {
	name, kind string
	ls         *safeio.Lines
	nonBlank   bool
}

func newLineReader(name, kind string, r io.Reader) *lineReader {
	return &lineReader{name: name, kind: kind, ls: safeio.NewLines(r, name, MaxLineBytes)}
}

// next returns the next non-blank line (without its "\n") and its 1-based number, or
// io.EOF. The bytes are valid until the next call.
func (lr *lineReader) next() ([]byte, int, error) {
	for lr.ls.Next() {
		line, text := lr.ls.Line(), lr.ls.Bytes()
		if err := checkLine(lr.name, lr.kind, line, text); err != nil {
			return nil, 0, err
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		lr.nonBlank = true
		return text, line, nil
	}
	if err := lr.ls.Err(); err != nil {
		if pe, ok := err.(*os.PathError); ok {
			return nil, 0, Errorf(lr.name, 0, "", "cannot read %s file: %v", lr.kind, pe.Err)
		}
		return nil, 0, err
	}
	if !lr.nonBlank {
		return nil, 0, Errorf(lr.name, 0, "", "%s file is empty", lr.kind)
	}
	return nil, 0, io.EOF
}
