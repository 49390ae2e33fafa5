package safeio

import (
	"bytes"
	"io"
	"testing"
)

// zstdFrame is a zstd frame holding "{}\n" as one raw block, after the magic number and
// the given frame header (RFC 8878 §3.1.1.1): its descriptor byte, then the window
// descriptor or the content size it announces. The block header 0x19 0x00 0x00 is
// last block (bit 0), raw (bits 1-2 zero), size 3 (bits 3 on: 3<<3 = 0x18).
func zstdFrame(header ...byte) []byte {
	f := append([]byte{0x28, 0xb5, 0x2f, 0xfd}, header...)
	return append(f, 0x19, 0x00, 0x00, '{', '}', '\n')
}

// ZstdWindow128MiB and ZstdWindow256MiB: descriptor 0x00 (no content size, not single
// segment), then a window descriptor of exponent e and mantissa 0, window 2^(10+e):
// 0x88 is e = 17, 128 MiB; 0x90 is e = 18, 256 MiB.
var (
	zstdWindow128MiB = zstdFrame(0x00, 0x88)
	zstdWindow256MiB = zstdFrame(0x00, 0x90)
	// Descriptor 0xE0: an 8-byte content size (bits 6-7 = 3) and single segment (bit 5),
	// where the window is the whole content: 32 GiB, 0x0000000800000000 little-endian.
	zstdSingleSegment32GiB = zstdFrame(0xe0, 0, 0, 0, 0, 8, 0, 0, 0)
)

func TestZstdWindowLimit(t *testing.T) {
	t.Parallel()
	read := func(data []byte) ([]byte, error) {
		zr, err := Zstd(bytes.NewReader(data), "r.jsonl.zst", 1<<20)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		return io.ReadAll(zr)
	}
	if got, err := read(zstdWindow128MiB); err != nil || string(got) != "{}\n" {
		t.Errorf("a 128 MiB window (zstd --long=27): %q, %v; want it read", got, err)
	}
	for _, data := range [][]byte{zstdWindow256MiB, zstdSingleSegment32GiB} {
		_, err := read(data)
		wantInputError(t, err, `^r\.jsonl\.zst: asks for a zstd window larger than 128 MiB, the limit`)
	}
}
