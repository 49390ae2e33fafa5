package eval_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
)

// TestZstdResultsWindowBounded: .zst results files of a dozen bytes whose frame header
// asks for a large window made the decoder allocate it before reading a byte; each is
// refused, naming the file. A frame: the magic number, a header, then a last raw block
// of 3 bytes (block header 0x19 0x00 0x00) holding "{}\n".
func TestZstdResultsWindowBounded(t *testing.T) {
	t.Parallel()
	magic, block := []byte{0x28, 0xb5, 0x2f, 0xfd}, []byte{0x19, 0x00, 0x00, '{', '}', '\n'}
	for name, header := range map[string][]byte{
		// Descriptor 0x00 (no content size), window descriptor 0x98: exponent 19,
		// 2^(10+19) bytes = 512 MiB, the most the decoder allowed by default.
		"window.jsonl.zst": {0x00, 0x98},
		// Descriptor 0xE0: single segment, an 8-byte content size of 2^30 = 1 GiB
		// (0x40000000 little-endian), which is then the window.
		"single.jsonl.zst": {0xe0, 0, 0, 0, 0x40, 0, 0, 0, 0},
	} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, append(append(append([]byte{}, magic...), header...), block...), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := eval.LoadRun(path)
		if ie := (*eval.InputError)(nil); !errors.As(err, &ie) || ie.File != path || !strings.Contains(ie.Msg, "zstd window larger than 128 MiB") {
			t.Errorf("%s: error %v; want an input error naming it and the 128 MiB window limit", name, err)
		}
	}
}
