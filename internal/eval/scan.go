package eval

import (
	"io"
	"runtime"
	"sync"
)

// scanBatch is a run of consecutive lines decoded together by one worker.
type scanBatch struct {
	buf     []byte // the lines' bytes, back to back
	ends    []int  // end offset of each line in buf
	nums    []int  // line numbers
	results []*Result
	preps   []any
	err     error // the first error, in line order; later lines are not decoded
	done    chan struct{}
}

const scanBatchLines = 32

// batchBufs recycles the batches' line buffers: nothing decoded refers to them (strings
// are copied out of the line), so a buffer is free once its batch is decoded.
var batchBufs = sync.Pool{New: func() any { return new([]byte) }}

// release hands the batch's line buffer back for another batch.
func (b *scanBatch) release() {
	if cap(b.buf) <= 4<<20 { // keep no huge buffer a giant line grew
		buf := b.buf[:0]
		batchBufs.Put(&buf)
	}
	b.buf, b.ends = nil, nil
}

// ScanOptions say what a scan keeps and computes.
type ScanOptions struct {
	// KeepRecord keeps each record's decoded map in Result.Record (a baseline stores its
	// outputs); otherwise it is dropped once the Result is built.
	KeepRecord bool
	// Prep, when set, runs on the decoding workers for each record, in parallel, and
	// its value is handed to fn with the record: work that needs no order (scoring).
	Prep func(res *Result) any
	// Fields, when set, names the top-level keys of a record something reads (the
	// suite fields a rubric and the report use): only those are decoded into
	// Result.Fields (more may be, on the full path). Every key is still checked and
	// covered by the item's hash.
	Fields func(key string) bool
	// ItemKeys, when set, names the top-level keys of a record another tool wrote that
	// describe its item (ScanDecoded only): the item's hash covers those and the id, not
	// what the record says of one answer (promptfoo's cost, lm-eval's filtered answer),
	// so an item answered differently is the same item. Nil: every key but a result's.
	ItemKeys func(key string) bool
}

// ScanRun reads a results file (JSONL, optionally .gz or .zst) as a stream and calls fn
// with each record in file order. Records are decoded (and prepared) in parallel on the
// machine's cores while fn runs; memory holds a few batches of lines, never the file.
// fn's error, or the first bad record, stops the scan and is returned.
func ScanRun(path string, opts ScanOptions, fn func(res *Result, prep any) error) error {
	r, closeFn, err := openResults(path)
	if err != nil {
		return err
	}
	defer closeFn()
	return ScanReader(path, r, opts, fn)
}

// ScanReader is ScanRun over a stream (standard input); name labels it in errors.
func ScanReader(name string, r io.Reader, opts ScanOptions, fn func(res *Result, prep any) error) error {
	path := name
	lr := newLineReader(name, "results", r)
	work, ordered, stop, wg := startWorkers(func(b *scanBatch) {
		b.decode(path, opts)
		b.release()
		close(b.done)
	})
	readerDone := make(chan struct{})
	defer func() { <-readerDone }() // before the file closes: the reader may be mid-read
	go func() {                     // reader: lines → batches, in order
		defer close(readerDone)
		defer close(ordered)
		defer close(work)
		size := 0 // the last batch's bytes: the next one is about as large
		for {
			buf := batchBufs.Get().(*[]byte)
			if cap(*buf) < size+size/4 {
				*buf = make([]byte, 0, size+size/4)
			}
			b := &scanBatch{done: make(chan struct{}), buf: (*buf)[:0],
				ends: make([]int, 0, scanBatchLines), nums: make([]int, 0, scanBatchLines)}
			for len(b.nums) < scanBatchLines {
				text, n, err := lr.next()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.err = err
					break
				}
				b.buf = append(b.buf, text...)
				b.ends = append(b.ends, len(b.buf))
				b.nums = append(b.nums, n)
			}
			if len(b.nums) == 0 && b.err == nil {
				return
			}
			size = len(b.buf)
			readErr := b.err // the batch is the workers' once handed over: read nothing of it after
			select {
			case ordered <- b:
			case <-stop:
				return
			}
			select {
			case work <- b:
			case <-stop:
				return
			}
			if readErr != nil {
				return
			}
		}
	}()
	defer wg.Wait()
	defer close(stop)
	for b := range ordered {
		<-b.done
		for k, res := range b.results {
			if err := fn(res, prepAt(b.preps, k)); err != nil {
				return err
			}
		}
		if b.err != nil {
			return b.err
		}
	}
	return nil
}

// decode decodes the batch's lines up to the first bad one. A reader error already set
// on the batch comes after its lines, so a bad record before it is reported first.
func (b *scanBatch) decode(path string, opts ScanOptions) {
	start := 0
	b.results = make([]*Result, 0, len(b.nums))
	var fast jsonScan
	for i, end := range b.ends {
		text := b.buf[start:end]
		start = end
		if !opts.KeepRecord {
			if res, ok := decodeResultFast(path, b.nums[i], text, &fast, opts.Fields); ok {
				b.results = append(b.results, res)
				if opts.Prep != nil {
					b.preps = append(b.preps, opts.Prep(res))
				}
				continue
			}
		}
		fields, err := decodeRecord(path, b.nums[i], text)
		if err == nil {
			var res *Result
			res, err = newResult(path, b.nums[i], fields)
			if err == nil {
				if !opts.KeepRecord {
					res.Record = nil
				}
				b.results = append(b.results, res)
				if opts.Prep != nil {
					b.preps = append(b.preps, opts.Prep(res))
				}
				continue
			}
		}
		b.err = err
		return
	}
}

// startWorkers starts a worker per core running do on each batch sent on work, and
// makes the channel the batches go on in order (twice as deep) and the stop channel.
// wg is done once work is closed and drained.
func startWorkers[B any](do func(B)) (work, ordered chan B, stop chan struct{}, wg *sync.WaitGroup) {
	workers := max(runtime.GOMAXPROCS(0), 1)
	work, ordered, stop, wg = make(chan B, workers), make(chan B, 2*workers), make(chan struct{}), &sync.WaitGroup{}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				do(b)
			}
		}()
	}
	return work, ordered, stop, wg
}

// prepAt is what Prep returned for a batch's k-th record (nil without Prep).
func prepAt(preps []any, k int) any {
	if preps == nil {
		return nil
	}
	return preps[k]
}
