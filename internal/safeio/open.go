package safeio

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// Open opens path for reading. Anything but a regular file (after symlinks) is refused
// with a clear error: a directory, a FIFO (which would block the open until a writer
// comes), a device (/dev/zero never ends), a socket. kind names the file in messages
// ("results", "config").
func Open(path, kind string) (*os.File, error) {
	f, _, err := openRegular(path, kind, os.O_RDONLY)
	return f, err
}

// OpenIfExists is Open, with a nil file and no error when nothing is at path (a file a
// run leaves behind only sometimes: a budget note, a manifest, a results file to resume).
func OpenIfExists(path, kind string) (*os.File, error) {
	f, missing, err := openRegular(path, kind, os.O_RDONLY)
	if missing {
		return nil, nil
	}
	return f, err
}

// OpenReadWrite opens path for reading and writing, creating it when nothing is there
// (a results file a resumed run appends to); anything but a regular file is refused, as
// Open refuses it.
func OpenReadWrite(path, kind string) (*os.File, error) {
	f, _, err := openRegular(path, kind, os.O_RDWR|os.O_CREATE)
	return f, err
}

// ReadFileIfExists is ReadFile, with nil and no error when nothing is at path.
func ReadFileIfExists(path, kind string, limit int64) ([]byte, error) {
	f, err := OpenIfExists(path, kind)
	if f == nil || err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, kind, limit)
}

// openRegular opens path with flag, refusing what is not a regular file; missing says
// nothing was at path (and flag does not create it). What is at path is looked at
// before the open, so a device is never opened (opening one can act: a tape rewinds),
// and the open handle again after, so a FIFO swapped in between is refused too, without
// the open blocking on it.
func openRegular(path, kind string, flag int) (f *os.File, missing bool, err error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE == 0:
		return nil, true, Errorf(path, 0, "", "cannot read %s file: %v", kind, unwrapPathErr(err))
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, false, Errorf(path, 0, "", "cannot read %s file: %v", kind, unwrapPathErr(err))
	default:
		if err := regular(path, kind, st); err != nil {
			return nil, false, err
		}
	}
	f, err = openNonblock(path, flag)
	if err != nil {
		return nil, false, Errorf(path, 0, "", "cannot read %s file: %v", kind, unwrapPathErr(err))
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, false, Errorf(path, 0, "", "cannot read %s file: %v", kind, unwrapPathErr(err))
	}
	if err := regular(path, kind, st); err != nil {
		f.Close()
		return nil, false, err
	}
	return f, false, nil
}

// regular refuses what is not a regular file, saying what it is.
func regular(path, kind string, st fs.FileInfo) error {
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "is a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "is a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "is a socket"
	case m&fs.ModeCharDevice != 0:
		what = "is a character device"
	case m&fs.ModeDevice != 0:
		what = "is a device"
	}
	return Errorf(path, 0, "", "%s; want a regular %s file", what, kind)
}

// ReadFile reads a regular file whole, refusing one larger than limit bytes.
func ReadFile(path, kind string, limit int64) ([]byte, error) {
	f, err := Open(path, kind)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, kind, limit)
}

// ReadAll reads r whole (standard input, a decompressed stream), refusing more than
// limit bytes; name labels it in messages.
func ReadAll(r io.Reader, name, kind string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, Errorf(name, 0, "", "cannot read %s file: %v", kind, unwrapPathErr(err))
	}
	if int64(len(data)) > limit {
		return nil, Errorf(name, 0, "", "%s file is larger than %s, the limit", kind, mib(limit))
	}
	return data, nil
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
