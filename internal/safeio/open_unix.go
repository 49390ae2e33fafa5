//go:build unix

package safeio

import (
	"os"
	"syscall"
)

// openNonblock opens read-only without blocking on a FIFO; the caller refuses it after.
// O_NONBLOCK does not change reads of a regular file.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
