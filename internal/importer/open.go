package importer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/safeio"
)

// Compression: a tool's file may be gzip- or zstd-compressed (results.json.gz,
// samples_x.jsonl.zst, log.json.gz); it is told by its first bytes, whatever its name,
// and read through the decompressor, bounded by maxDecompressed.
// maxDecompressed bounds what one compressed file may expand to: safeio's bound, which the
// fuzz tests lower so that a mutated input expanding towards it cannot stall a fuzz run.
var maxDecompressed int64 = safeio.MaxDecompressedBytes

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	zipMagic  = []byte("PK\x03\x04")
	zipEmpty  = []byte("PK\x05\x06")
	// lfsPointer starts a Git LFS pointer file: the file itself was never fetched.
	lfsPointer = []byte("version https://git-lfs.github.com/spec/")
)

// input is an open results file: its content, decompressed.
type input struct {
	io.Reader
	closers    []io.Closer
	compressed bool
}

func (in *input) Close() error {
	for i := len(in.closers) - 1; i >= 0; i-- {
		in.closers[i].Close()
	}
	return nil
}

// openInput opens a results file after the checks every input shares, decompressing
// it when it is gzip or zstd, and refusing a Git LFS pointer with what to do.
func openInput(path string) (*input, error) {
	f, err := openRaw(path)
	if err != nil {
		return nil, err
	}
	in := &input{closers: []io.Closer{f}}
	br := bufio.NewReaderSize(f, 1<<16)
	head, _ := br.Peek(len(lfsPointer))
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		gz, err := gzip.NewReader(br)
		if err != nil {
			in.Close()
			return nil, eval.Errorf(path, 0, "", "starts as gzip but is not a valid gzip file: %v", err)
		}
		in.closers = append(in.closers, gz)
		in.Reader, in.compressed = safeio.Capped(gz, path, maxDecompressed), true
	case bytes.HasPrefix(head, zstdMagic):
		zr, err := safeio.Zstd(br, path, maxDecompressed)
		if err != nil {
			in.Close()
			return nil, err
		}
		in.closers = append(in.closers, zr)
		in.Reader, in.compressed = zr, true
	case bytes.HasPrefix(head, lfsPointer):
		in.Close()
		return nil, lfsError(path)
	default:
		in.Reader = br
	}
	if in.compressed {
		// A compressed LFS pointer is unlikely, but its content is what counts.
		dbr := bufio.NewReaderSize(in.Reader, 1<<16)
		in.Reader = dbr
		if h, _ := dbr.Peek(len(lfsPointer)); bytes.HasPrefix(h, lfsPointer) {
			in.Close()
			return nil, lfsError(path)
		}
	}
	return in, nil
}

// IsLFSPointer reports whether a file is a Git LFS pointer (its content was not fetched).
func IsLFSPointer(path string) bool {
	f, err := safeio.Open(path, "results") // never a FIFO or a device: opening one can block
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(lfsPointer))
	n, _ := io.ReadFull(f, head)
	return bytes.Equal(head[:n], lfsPointer)
}

func lfsError(path string) error {
	return eval.Errorf(path, 0, "", "is a Git LFS pointer, not the results file itself: fetch the file with `git lfs pull` (in a workflow: actions/checkout with `lfs: true`)")
}

// openRaw opens a results file as it is on disk after the checks every input shares:
// safeio.Open's (a regular file, the check made on the open handle, so nothing swapped
// in after it is read), and not empty.
func openRaw(path string) (*os.File, error) {
	f, err := safeio.Open(path, "results")
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, eval.Errorf(path, 0, "", "cannot read results file: %v", err)
	}
	if st.Size() == 0 {
		f.Close()
		return nil, eval.Errorf(path, 0, "", "results file is empty")
	}
	return f, nil
}

// readHead reads up to n bytes of a file's (decompressed) content.
func readHead(path string, n int) ([]byte, error) {
	in, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	head := make([]byte, n)
	k, err := io.ReadFull(in, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		var ie *eval.InputError
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, eval.Errorf(path, 0, "", "cannot read results file: %v", err)
	}
	return head[:k], nil
}

// isZip says whether content starts as a zip archive (an Inspect `.eval` log).
func isZip(head []byte) bool {
	return bytes.HasPrefix(head, zipMagic) || bytes.HasPrefix(head, zipEmpty)
}

// unzipPath is a path zip can open for a file that may be compressed: the file itself,
// or its decompressed content in a temporary file (removed by the returned func).
func unzipPath(path string) (string, func(), error) {
	in, err := openInput(path)
	if err != nil {
		return "", nil, err
	}
	defer in.Close()
	if !in.compressed {
		return path, func() {}, nil
	}
	tmp, err := os.CreateTemp("", "evalgate-inspect-*.eval")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { tmp.Close(); os.Remove(tmp.Name()) }
	if _, err := io.Copy(tmp, in); err != nil {
		cleanup()
		var ie *eval.InputError
		if errors.As(err, &ie) {
			return "", nil, err
		}
		return "", nil, eval.Errorf(path, 0, "", "cannot decompress: %v", err)
	}
	return tmp.Name(), cleanup, nil
}
