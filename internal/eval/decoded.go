package eval

import (
	"errors"
	"strings"
)

// ResultFromRecord validates a record decoded elsewhere (by an importer of another
// tool's results) as a Result, keeping in Fields only the top-level keys keep names
// (nil: all of them). The item's hash (ItemFromResult) covers the keys item names
// (nil: every key but a result's, as for a line the results decoder read), whatever
// Fields keeps. The record is the Result's from then on.
func ResultFromRecord(file string, line int, rec map[string]any, keep, item func(key string) bool) (*Result, error) {
	res, err := newResultKeeping(file, line, rec, keep)
	if err != nil {
		return nil, err
	}
	res.Record = nil
	if keep != nil || item != nil {
		for k := range rec { // what is left are the item's fields and its id
			if k != "id" && (resultKeys[k] || item != nil && !item(k)) {
				delete(rec, k)
			}
		}
		res.hashFrom = rec
	}
	return res, nil
}

// Decoded is one record an importer decoded: its line in the tool's file (0 inside a
// document) and where it sits there ("results.results[3]"; "" for a line).
type Decoded struct {
	Line   int
	Where  string
	Fields map[string]any
}

// decodedBatch is a run of consecutive records built into results by one worker.
type decodedBatch struct {
	recs    []Decoded
	results []*Result
	preps   []any
	err     error // the first bad record's, in order; later ones are not built
	done    chan struct{}
}

const decodedBatchRecords = 64

// errScanStopped tells produce that the scan stopped (fn refused a record).
var errScanStopped = errors.New("eval: scan stopped")

// ScanDecoded calls fn, in order, with every record produce emits, validated as a
// Result (ResultFromRecord with opts.Fields and opts.ItemKeys) and prepared (opts.Prep): produce decodes
// in its own goroutine while the machine's other cores build and prepare the records
// it decoded before, and fn scores them. Memory holds a few batches of records. An
// invalid record's message names file, its line or place (where), and its item;
// produce's error comes after the records it emitted; fn's error stops the scan. fn's
// where is the record's.
func ScanDecoded(file string, produce func(emit func(Decoded) error) error, opts ScanOptions, fn func(res *Result, where string, prep any) error) error {
	work, ordered, stop, wg := startWorkers(func(b *decodedBatch) {
		b.build(file, opts)
		close(b.done)
	})
	var prodErr error
	producerDone := make(chan struct{})
	defer func() { <-producerDone }()
	go func() {
		defer close(producerDone)
		defer close(ordered)
		defer close(work)
		b := &decodedBatch{done: make(chan struct{})}
		send := func() error {
			if len(b.recs) == 0 {
				return nil
			}
			select {
			case ordered <- b:
			case <-stop:
				return errScanStopped
			}
			select {
			case work <- b:
			case <-stop:
				return errScanStopped
			}
			b = &decodedBatch{done: make(chan struct{}), recs: make([]Decoded, 0, decodedBatchRecords)}
			return nil
		}
		err := produce(func(d Decoded) error {
			b.recs = append(b.recs, d)
			if len(b.recs) >= decodedBatchRecords {
				return send()
			}
			return nil
		})
		if err == nil {
			err = send()
		}
		if err != errScanStopped {
			prodErr = err
		}
	}()
	defer wg.Wait()
	defer close(stop)
	for b := range ordered {
		<-b.done
		for k, res := range b.results {
			if err := fn(res, b.recs[k].Where, prepAt(b.preps, k)); err != nil {
				return err
			}
		}
		if b.err != nil {
			return b.err
		}
	}
	<-producerDone // ordered is closed: the producer has returned
	return prodErr
}

// build validates and prepares the batch's records up to the first bad one.
func (b *decodedBatch) build(file string, opts ScanOptions) {
	b.results = make([]*Result, 0, len(b.recs))
	for _, d := range b.recs {
		res, err := ResultFromRecord(file, d.Line, d.Fields, opts.Fields, opts.ItemKeys)
		if err != nil {
			var ie *InputError
			if errors.As(err, &ie) && d.Where != "" && !strings.HasPrefix(ie.Msg, d.Where+": ") {
				ie.Msg = d.Where + ": " + ie.Msg
			}
			b.err = err
			return
		}
		b.results = append(b.results, res)
		if opts.Prep != nil {
			b.preps = append(b.preps, opts.Prep(res))
		}
	}
}
