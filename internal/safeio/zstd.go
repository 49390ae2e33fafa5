package safeio

import (
	"errors"
	"io"

	"github.com/klauspost/compress/zstd"
)

// MaxZstdWindow bounds the window a zstd stream may ask for: the decoder holds that much
// of the past output (and a frame of known size asks for all of it at once), so a header
// of a few bytes could otherwise make it allocate gigabytes. 128 MiB is zstd's largest
// window without --long=28 or more.
const MaxZstdWindow = 128 << 20

// Zstd decompresses r, a zstd stream, with its window at most MaxZstdWindow and its
// output Capped at limit bytes; name labels it in errors. Every zstd reader of outside
// input goes through it. Close releases the decoder (not r).
func Zstd(r io.Reader, name string, limit int64) (io.ReadCloser, error) {
	zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxWindow(MaxZstdWindow), zstd.WithDecoderMaxMemory(MaxZstdWindow))
	if err != nil {
		return nil, Errorf(name, 0, "", "not a valid zstd file: %v", err)
	}
	return &zstdReader{r: Capped(windowed{zr, name}, name, limit), zr: zr}, nil
}

type zstdReader struct {
	r  io.Reader
	zr *zstd.Decoder
}

func (z *zstdReader) Read(p []byte) (int, error) { return z.r.Read(p) }

func (z *zstdReader) Close() error {
	z.zr.Close()
	return nil
}

// windowed says what a window past the limit means, where the decoder says only
// "window size exceeded".
type windowed struct {
	zr   *zstd.Decoder
	name string
}

func (w windowed) Read(p []byte) (int, error) {
	n, err := w.zr.Read(p)
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		return n, Errorf(w.name, 0, "", "asks for a zstd window larger than %s, the limit (was it compressed with --long=28 or more?); recompress it without --long, or with --long=27", mib(MaxZstdWindow))
	}
	return n, err
}
