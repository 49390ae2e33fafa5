//go:build unix

package safeio

import (
	"os"
	"syscall"
)

// openNonblock opens with flag without blocking on a FIFO; the caller refuses it after.
// O_NONBLOCK does not change reads and writes of a regular file.
func openNonblock(path string, flag int) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NONBLOCK, 0o644)
}
