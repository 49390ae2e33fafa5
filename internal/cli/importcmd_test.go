package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/importer"
)

// The files import writes are readable by others (0644), as every other file evalgate
// writes: a workflow step under another user (the action's image runs as 65532) reads
// them. They are written to temporary files first, which os.CreateTemp makes 0600.
func TestImportWritesReadableFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "pf.jsonl")
	rec := `{"testCase":{"description":"a","vars":{"q":"1"}},"promptIdx":0,"provider":{"id":"echo"},"prompt":{"raw":"1"},"response":{"output":"1"},"success":true,"score":1}` + "\n"
	if err := os.WriteFile(in, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "conv")
	if _, err := importFile(in, out, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"results.jsonl", "suite.jsonl"} {
		st, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v; want -rw-r--r--", name, st.Mode().Perm())
		}
	}
}

// import holds no record's text while it reads: what it keeps of each result (the run and
// id it refuses a repeat of, the suite's id) is copied out of the record. A map keyed by
// the decoded id held the whole record (the decoder's strings are slices of the record's
// text): 1,000,000 promptfoo results peaked at 2.35 GB. Here 3,000 results of 48 KiB each
// (141 MiB in all) peak under 64 MiB of live heap, a few batches of records in flight.
func TestImportHoldsNoRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 141 MiB")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "pf.jsonl")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	long := strings.Repeat("x", 48<<10)
	for i := range 3000 {
		fmt.Fprintf(w, `{"testCase":{"description":"test %d","vars":{"q":"%d"}},"promptIdx":0,"provider":{"id":"echo"},"prompt":{"raw":"%d"},"response":{"output":"%s"},"success":true,"score":1}`+"\n", i, i, i, long)
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	peak := peakLiveHeap(t, func() {
		if _, err := importFile(in, filepath.Join(dir, "conv"), importer.Options{}); err != nil {
			t.Error(err)
		}
	})
	if peak > 64<<20 {
		t.Errorf("importing 141 MiB of results peaked at %d MiB of live heap; want under 64 MiB", peak>>20)
	}
}

// peakLiveHeap runs fn while sampling the live heap (what the last collection found
// reachable, runtime/metrics /gc/heap/live:bytes), and returns the highest seen.
func peakLiveHeap(t *testing.T, fn func()) uint64 {
	t.Helper()
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak atomic.Uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > peak.Load() {
				peak.Store(sample[0].Value.Uint64())
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	return peak.Load()
}
