package safeio

import (
	"bytes"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWriteFileRegularAndNew(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new", "report.json") // the directory is created
	if err := WriteFile(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("content %q", b)
	}
	// A symlink is followed: the target is replaced, the link stays a link.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("three")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced by a %v", st.Mode())
	}
	if b, _ := os.ReadFile(p); string(b) != "three" {
		t.Errorf("target content %q", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestWriteFileDevices(t *testing.T) {
	// /dev/null is written through and stays a device (a rename over it, as root,
	// would have made it a regular file).
	if err := WriteFile("/dev/null", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat("/dev/null"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is now %v (%v)", st.Mode(), err)
	}
	// /dev/full refuses the write: an error naming it, and it stays a device.
	if _, err := os.Stat("/dev/full"); err == nil {
		err := WriteFile("/dev/full", []byte("x"))
		if err == nil || err.Error() != "cannot write /dev/full: no space left on device" {
			t.Errorf("/dev/full: err %v", err)
		}
		if st, _ := os.Stat("/dev/full"); st.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("/dev/full is now %v", st.Mode())
		}
	}
}

func TestWriteFileFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteFile(fifo, []byte("through the pipe")); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "through the pipe" {
			t.Errorf("reader got %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reader got nothing")
	}
	if st, _ := os.Stat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is now %v", st.Mode())
	}
}

func TestWriteFileRefused(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	for _, tc := range []struct{ path, want string }{
		{dir, "cannot write " + dir + ": is a directory; want a file path"},
		{sock, "cannot write " + sock + ": a socket; want a regular file, a device or a named pipe"},
		{filepath.Join(notDir, "r.json"), "cannot write " + filepath.Join(notDir, "r.json") + ": not a directory"},
	} {
		err := WriteFile(tc.path, []byte("x"))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: err %v; want %q", tc.path, err, tc.want)
		}
	}
	if st, _ := os.Lstat(sock); st.Mode()&os.ModeSocket == 0 {
		t.Errorf("the socket was replaced")
	}
}

// TestWriteFileErrorNamesPath: a failure while writing the temporary file names the
// user's path, not ".report.json.tmp123".
func TestWriteFileErrorNamesPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(dir, 0o555)
	p := filepath.Join(dir, "report.json")
	if os.Geteuid() == 0 { // root writes anyway: fail the way os.CreateTemp fails then
		createTemp = func(dir, pattern string) (*os.File, error) {
			return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, ".report.json.tmp123"), Err: syscall.EACCES}
		}
		defer func() { createTemp = os.CreateTemp }()
	}
	err := WriteFile(p, []byte("x"))
	if err == nil || err.Error() != "cannot write "+p+": permission denied" || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("err %v", err)
	}
}

func TestWriteOutStdout(t *testing.T) {
	var b bytes.Buffer
	if err := WriteOut("-", []byte("to stdout"), &b); err != nil || b.String() != "to stdout" {
		t.Errorf("got %q, %v", b.String(), err)
	}
}

// WriteOut is WriteFile, except that path "-" writes to stdout.
func WriteOut(path string, data []byte, stdout io.Writer) error {
	if path == Stdin {
		_, err := stdout.Write(data)
		return err
	}
	return WriteFile(path, data)
}
