package safeio

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
)

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// Decompress returns r decompressed when it starts with a gzip header, else r as it
// is. The decompressed stream fails with an *InputError once it passes limit bytes
// (a small file that expands without end is refused, not truncated in silence).
func Decompress(r io.Reader, name string, limit int64) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(len(gzipMagic))
	if !bytes.Equal(head, gzipMagic) {
		return br, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, Errorf(name, 0, "", "not a valid gzip file: %v", err)
	}
	return Capped(zr, name, limit), nil
}

// Capped returns r failing with an *InputError once more than limit bytes come out of
// it: for a decompressor (gzip, zstd) whose output a small file could make endless.
func Capped(r io.Reader, name string, limit int64) io.Reader {
	return &capReader{r: r, name: name, left: limit, limit: limit}
}

// capReader fails instead of reading past its limit.
type capReader struct {
	r     io.Reader
	name  string
	left  int64
	limit int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more tells a stream of exactly limit bytes from a longer one.
		var one [1]byte
		for {
			n, err := c.r.Read(one[:])
			if n > 0 {
				return 0, Errorf(c.name, 0, "", "decompresses to more than %s, the limit", mib(c.limit))
			}
			if err != nil {
				return 0, c.corrupt(err)
			}
		}
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, c.corrupt(err)
}

// corrupt says what a decompressor's error means; an *InputError (a cap below) stays.
func (c *capReader) corrupt(err error) error {
	var ie *InputError
	if err == nil || err == io.EOF || errors.As(err, &ie) {
		return err
	}
	return Errorf(c.name, 0, "", "corrupt compressed data: %v", err)
}
