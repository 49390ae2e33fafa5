package safeio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path the way a user expects of an output flag (--out):
//
//   - a regular file, or a path that does not exist yet (its directory is created), is
//     written atomically: a temporary file beside it, renamed over it, so a reader never
//     sees half a file; a symlink is followed and its target replaced;
//   - a character device or a named pipe (/dev/stdout, /dev/null, a FIFO) is written
//     through, never replaced: a rename would turn the device node into a file;
//   - a directory, a socket or anything else is refused.
//
// Errors name path as the user gave it, never the temporary file.
func WriteFile(path string, data []byte) error {
	return WriteFileFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFileFunc is WriteFile for content written as a stream by write (a large report
// is never held whole).
func WriteFileFunc(path string, write func(w io.Writer) error) error {
	target := path
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return writeErr(path, err)
	case st.Mode().IsRegular():
		if t, err := filepath.EvalSymlinks(path); err == nil {
			target = t
		}
	case st.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
		return writeThrough(path, write)
	case st.IsDir():
		return fmt.Errorf("cannot write %s: is a directory; want a file path", path)
	default:
		return fmt.Errorf("cannot write %s: %s; want a regular file, a device or a named pipe", path, describeMode(st.Mode()))
	}
	return writeAtomic(path, target, write)
}

func writeThrough(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return writeErr(path, err)
	}
	werr := write(f)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		return writeErr(path, err)
	}
	return nil
}

func writeAtomic(path, target string, write func(io.Writer) error) error {
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return writeErr(path, err)
	}
	f, err := createTemp(dir, "."+filepath.Base(target)+".tmp*")
	if err != nil {
		return writeErr(path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return writeErr(path, err)
	}
	if err := write(f); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return writeErr(path, err)
	}
	// Between the Stat and here something else may have appeared at target: rename only
	// over nothing or a regular file.
	if st, err := os.Lstat(target); err == nil && !st.Mode().IsRegular() {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %s appeared while writing; not replaced", path, describeMode(st.Mode()))
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return writeErr(path, err)
	}
	return nil
}

// createTemp is os.CreateTemp; a test replaces it to fail the way a read-only directory
// does for a user who is not root.
var createTemp = os.CreateTemp

// writeErr names the user's path and the cause, without the temporary file's name.
func writeErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return fmt.Errorf("cannot write %s: %w", path, err)
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "not a regular file"
}
