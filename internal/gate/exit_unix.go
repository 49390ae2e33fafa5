//go:build unix

package gate

import (
	"errors"
	"syscall"
)

// isPathShape says the path names the wrong kind of thing (a file where a directory is
// wanted, or the reverse, or a name too long): bad input, not a failure to run.
func isPathShape(err error) bool {
	return errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.ENAMETOOLONG)
}
