package importer

import (
	"io"
	"sync"
)

// windowSize is how much of an archive one read brings in: a window of a megabyte holds
// about a thousand small samples.
const windowSize = 1 << 20

// window is an io.ReaderAt over an archive that reads it a window at a time: archive/zip
// reads each member's local header and then its data with a read of its own, two system
// calls for every sample of a million-sample `.eval` log; read in file order, as the
// samples are, one read now serves a window's worth of them. A read the window does not
// hold moves the window there; one larger than the window goes straight to the file.
type window struct {
	mu  sync.Mutex
	r   io.ReaderAt
	buf []byte
	off int64 // the file offset of buf[0]
}

func newWindow(r io.ReaderAt) *window { return &window{r: r} }

// ReadAt reads len(p) bytes at off, from the window when it holds them.
func (w *window) ReadAt(p []byte, off int64) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if off >= w.off && off+int64(len(p)) <= w.off+int64(len(w.buf)) {
		return copy(p, w.buf[off-w.off:]), nil
	}
	if len(p) > windowSize/2 {
		return w.r.ReadAt(p, off)
	}
	if w.buf == nil {
		w.buf = make([]byte, windowSize)
	}
	n, err := w.r.ReadAt(w.buf[:windowSize], off)
	w.buf, w.off = w.buf[:n], off
	if n >= len(p) {
		return copy(p, w.buf), nil
	}
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	return copy(p, w.buf), err
}
