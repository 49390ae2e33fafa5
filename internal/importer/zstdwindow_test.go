package importer_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

// TestZstdToolFileWindowBounded: a tool's file is told to be zstd by its first bytes,
// whatever its name; one whose frame asks for a 512 MiB window (window descriptor 0x98:
// 2^(10+19) bytes) is refused, naming the file, before the decoder allocates it. The
// frame holds "{}\n" as one last raw block (header 0x19 0x00 0x00).
func TestZstdToolFileWindowBounded(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "results.json")
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x98, 0x19, 0x00, 0x00, '{', '}', '\n'}
	if err := os.WriteFile(path, frame, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := importer.LoadRuns(path, importer.Options{})
	var ie *eval.InputError
	if !errorsAs(err, &ie) || ie.File != path || !strings.Contains(ie.Msg, "zstd window larger than 128 MiB") {
		t.Fatalf("error %v; want an input error naming %s and the 128 MiB window limit", err, path)
	}
}
