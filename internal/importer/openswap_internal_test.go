package importer

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenRawSwappedForAFIFO: the results path is swapped, again and again, between a
// regular file and a named pipe (two symlinks renamed over it in turn). Whatever openRaw
// sees must be refused or read at once: a check of the path followed by a second open
// of it can pass on the file and then open the pipe, which blocks until a writer comes.
func TestOpenRawSwappedForAFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file, fifo := filepath.Join(dir, "file.jsonl"), filepath.Join(dir, "pipe")
	if err := os.WriteFile(file, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "results.jsonl")
	stop := make(chan struct{})
	swapped := make(chan struct{})
	go func() {
		defer close(swapped)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			target, tmp := file, filepath.Join(dir, "to-file")
			if i%2 == 1 {
				target, tmp = fifo, filepath.Join(dir, "to-pipe")
			}
			os.Remove(tmp)
			if os.Symlink(target, tmp) == nil {
				os.Rename(tmp, path)
			}
		}
	}()
	defer func() { close(stop); <-swapped }()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 20000 {
			if f, err := openRaw(path); err == nil {
				f.Close()
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("openRaw blocked on the named pipe swapped in after its check")
	}
}
