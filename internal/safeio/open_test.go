package safeio

import (
	"bytes"
	"compress/gzip"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestOpenRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "results.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, `results\.jsonl: is a named pipe \(FIFO\); want a regular results file`},
		{"/dev/zero", `/dev/zero: is a character device; want a regular results file`},
		{link, `link\.jsonl: is a character device`}, // symlinks are followed
		{dir, `: is a directory; want a regular results file`},
		{sock, `s\.sock: is a socket`},
		{filepath.Join(dir, "nope"), `nope: cannot read results file: no such file or directory`},
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(tc.path, "results", 1<<20); done <- err }()
		select {
		case err := <-done:
			wantInputError(t, err, tc.want)
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: blocked", tc.path)
		}
	}
}

func TestReadFileCap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(p, []byte(strings.Repeat("x", 100)), 0o644)
	if b, err := ReadFile(p, "config", 100); err != nil || len(b) != 100 {
		t.Fatalf("at the cap: %d bytes, %v", len(b), err)
	}
	_, err := ReadFile(p, "config", 99)
	wantInputError(t, err, `c\.yaml: config file is larger than 99 bytes, the limit`)
}

func TestLines(t *testing.T) {
	in := "a\n\nbb\r\nccc" // CR kept for the caller to judge; last line without "\n"
	ls := NewLines(strings.NewReader(in), "r.jsonl", 10)
	var got []string
	for ls.Next() {
		got = append(got, string(ls.Bytes())+"@"+string(rune('0'+ls.Line())))
	}
	if err := ls.Err(); err != nil {
		t.Fatal(err)
	}
	if want := "a@1,@2,bb\r@3,ccc@4"; strings.Join(got, ",") != want {
		t.Errorf("lines %q; want %q", strings.Join(got, ","), want)
	}
}

func TestLinesCap(t *testing.T) {
	// Exactly max bytes is a line; max+1 is refused, with or without a newline after,
	// and the reader does not read the rest of an endless line.
	for _, tc := range []struct {
		in   string
		ok   int
		fail bool
	}{
		{"12345\n", 1, false},
		{"12345", 1, false},
		{"ok\n123456\n", 1, true},
		{"123456", 0, true},
	} {
		ls := NewLines(strings.NewReader(tc.in), "r.jsonl", 5)
		n := 0
		for ls.Next() {
			n++
		}
		if n != tc.ok || (ls.Err() != nil) != tc.fail {
			t.Errorf("%q: %d lines, err %v; want %d lines, fail %v", tc.in, n, ls.Err(), tc.ok, tc.fail)
		}
		if tc.fail {
			wantInputError(t, ls.Err(), `^r\.jsonl:\d: line is longer than 5 bytes, the limit for one record`)
		}
	}
	// An endless line: /dev/zero has no newline.
	f, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	ls := NewLines(f, "/dev/zero", 1<<20)
	if ls.Next() {
		t.Fatal("an endless line was returned")
	}
	wantInputError(t, ls.Err(), `^/dev/zero:1: line is longer than 1 MiB`)
}

func TestDecompressCap(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(make([]byte, 1<<20)) // 1 MiB of zeros compresses to about 1 KiB
	zw.Close()
	r, err := Decompress(bytes.NewReader(buf.Bytes()), "o.jsonl.gz", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(r); err != nil || len(b) != 1<<20 {
		t.Fatalf("at the cap: %d bytes, %v", len(b), err)
	}
	r, _ = Decompress(bytes.NewReader(buf.Bytes()), "o.jsonl.gz", 1<<20-1)
	_, err = io.ReadAll(r)
	wantInputError(t, err, `^o\.jsonl\.gz: decompresses to more than 1048575 bytes, the limit`)
	// Plain input passes through.
	r, _ = Decompress(strings.NewReader("plain"), "p", 1)
	if b, _ := io.ReadAll(r); string(b) != "plain" {
		t.Errorf("plain input: %q", b)
	}
}

// TestLinesOverCappedStream: a stream of blank lines past the decompression cap stops
// with the cap's error (a gzip bomb of newlines would read for hours).
func TestLinesOverCappedStream(t *testing.T) {
	ls := NewLines(Capped(strings.NewReader(strings.Repeat("\n", 100)), "r.jsonl.gz", 50), "r.jsonl.gz", 10)
	n := 0
	for ls.Next() {
		n++
	}
	if n != 50 {
		t.Errorf("%d lines before the cap; want 50", n)
	}
	wantInputError(t, ls.Err(), `^r\.jsonl\.gz: decompresses to more than 50 bytes, the limit$`)
}
