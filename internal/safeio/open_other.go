//go:build !unix

package safeio

import "os"

func openNonblock(path string, flag int) (*os.File, error) { return os.OpenFile(path, flag, 0o644) }
