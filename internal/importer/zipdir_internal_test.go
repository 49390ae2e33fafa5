package importer

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The compact central directory lists what archive/zip lists, for an archive of more
// than 65,535 members (70,000: Go's writer ends it with zip64 records, as Python's
// zipfile does Inspect's million-sample logs), a stored member and a deflated one
// included; each member reads back whole, its size and checksum checked.
func TestZipDirMatchesArchiveZip(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 70,000 zip members")
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	const n = 70000
	for i := range n {
		method := zip.Deflate
		if i%2 == 1 {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("samples/%d_epoch_1.json", i), Method: method})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(w, `{"id": %d, "text": %q}`, i, strings.Repeat("ab", i%50))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	want, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	z, err := readZipDir(newWindow(bytes.NewReader(data)), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(z.entries) != n || len(want.File) != n {
		t.Fatalf("%d entries (archive/zip: %d); want %d", len(z.entries), len(want.File), n)
	}
	var m memberDecoder
	var raw []byte
	for i, zf := range want.File {
		e := &z.entries[i]
		if string(z.name(e)) != zf.Name || e.crc != zf.CRC32 || e.csize != zf.CompressedSize64 || e.usize != zf.UncompressedSize64 || e.method != zf.Method {
			t.Fatalf("entry %d: %q crc %x sizes %d/%d method %d; archive/zip: %q %x %d/%d %d", i, z.name(e), e.crc, e.csize, e.usize, e.method, zf.Name, zf.CRC32, zf.CompressedSize64, zf.UncompressedSize64, zf.Method)
		}
		if i%997 != 0 && i != n-1 {
			continue
		}
		if raw, err = z.readMember(raw[:0], e); err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		text, err := m.inflate(raw)
		if want := fmt.Sprintf(`{"id": %d, "text": %q}`, i, strings.Repeat("ab", i%50)); err != nil || string(text) != want {
			t.Fatalf("entry %d: %q, %v; want %q", i, text, err, want)
		}
	}
}

// A member whose bytes do not match its checksum is refused, naming the member.
func TestEvalCorruptMember(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "samples/a_epoch_1.json", Method: zip.Store})
	w.Write([]byte(`{"id": "a", "epoch": 1, "output": {"completion": "x"}}`))
	zw.Close()
	data := bytes.Replace(buf.Bytes(), []byte(`"completion": "x"`), []byte(`"completion": "y"`), 1)
	path := filepath.Join(t.TempDir(), "log.eval")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path, Options{Format: Inspect}, func(Record) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "samples/a_epoch_1.json: cannot read: the archive member is corrupt") {
		t.Errorf("error %v; want the member named as corrupt", err)
	}
}
