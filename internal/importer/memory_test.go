package importer_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/importer"
)

// peakHeap runs fn while sampling the live heap, and returns the highest seen. Live is
// what the last garbage collection found reachable (runtime/metrics /gc/heap/live:bytes),
// not HeapAlloc, which also counts garbage not yet collected: how much of that there is
// depends on how the collector keeps pace on a loaded machine, not on what the importer
// holds.
func peakHeap(t *testing.T, fn func()) uint64 {
	t.Helper()
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				t.Errorf("runtime/metrics has no %s", sample[0].Name)
				return
			}
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
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

// writeDoc writes one large JSON document: head, n records from rec(i) separated by
// commas, tail. It returns the file's size.
func writeDoc(t *testing.T, path, head, tail string, n int, rec func(i int) string) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(head)
	for i := 0; i < n; i++ {
		if i > 0 {
			w.WriteString(",\n")
		}
		w.WriteString(rec(i))
	}
	w.WriteString(tail)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	f.Close()
	return st.Size()
}

// TestLargeDocumentsBoundedMemory: a promptfoo results.json and an Inspect .json log of
// ~60 MB each are read record by record: the heap stays far below the file's size.
func TestLargeDocumentsBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes two 60 MB files")
	}
	pad := strings.Repeat("lorem ipsum ", 200) // ~2.4 kB of output per record
	const n = 25000
	dir := t.TempDir()
	cases := []struct {
		name, head, tail string
		rec              func(i int) string
	}{
		{"promptfoo.json", `{"evalId": "eval-x", "results": {"version": 3, "prompts": [{"raw": "{{q}}", "provider": "echo"}], "results": [`,
			`], "stats": {}}, "config": {}}`, func(i int) string {
				return fmt.Sprintf(`{"testIdx": %d, "promptIdx": 0, "provider": {"id": "echo"}, "prompt": {"raw": "q%d"}, "testCase": {"description": "t%d", "vars": {"q": "q%d"}}, "response": {"output": "%s %d"}, "success": true, "score": 1, "namedScores": {"m": 0.5}, "latencyMs": 3}`, i, i, i, i, pad, i)
			}},
		{"inspect.json", `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}, "samples": [`,
			`]}`, func(i int) string {
				return fmt.Sprintf(`{"id": %d, "epoch": 1, "input": "q", "target": "t", "output": {"completion": "%s"}, "scores": {"s": {"value": "C"}}, "events": [{"event": "model", "text": "%s"}]}`, i, pad, pad)
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			size := writeDoc(t, path, c.head, c.tail, n, c.rec)
			records := 0
			peak := peakHeap(t, func() {
				if _, err := importer.Read(path, importer.Options{}, func(importer.Record) error {
					records++
					return nil
				}); err != nil {
					t.Error(err)
				}
			})
			t.Logf("%s: %d MB file, %d records, peak heap %.1f MB", c.name, size>>20, records, float64(peak)/(1<<20))
			if records != n {
				t.Errorf("%d records; want %d", records, n)
			}
			// The whole document decoded at once would need several times its size; record
			// by record the heap holds a few records, the decoder's buffer and, for
			// promptfoo, each test's id and key (to name tests and find repeats): measured
			// a live heap of 10 MB for 63 MB, 3 MB for Inspect's 118 MB.
			if peak > uint64(size)/3 {
				t.Errorf("peak heap %d bytes for a %d-byte file; want under a third of it", peak, size)
			}
		})
	}
}

// `evalgate import` holds no record's text while it reads: what it keeps of each result
// (the run and id it refuses a repeat of, the suite's id) is copied out of the record. A
// map keyed by the decoded id held the whole record (the decoder's strings are slices of
// the record's text): 1,000,000 promptfoo results peaked at 2.2 GiB of RSS. Here 3,000
// results of 48 KiB each (141 MiB in all) peak under 64 MiB of live heap, a few batches
// of records in flight (139 MiB before).
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
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	c := cli.New()
	var stderr strings.Builder
	c.Stdout, c.Stderr = io.Discard, &stderr
	peak := peakHeap(t, func() {
		if code := c.Main([]string{"evalgate", "import", in, "--out-dir", filepath.Join(dir, "conv")}); code != 0 {
			t.Errorf("import exited %d: %s", code, stderr.String())
		}
	})
	if peak > 64<<20 {
		t.Errorf("importing 141 MiB of results peaked at %d MiB of live heap; want under 64 MiB", peak>>20)
	}
}
