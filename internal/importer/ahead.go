package importer

import (
	"encoding/json"
	"errors"
	"runtime"
	"sync"

	"github.com/evalgate/evalgate/internal/eval"
)

// ahead decodes records on the machine's cores while the reader finds the next ones, and
// hands them to fn in file order on one goroutine of its own: the reader only finds where
// a record ends (a JSONL line, a list element of a document), so decoding — most of an
// import's work — no longer waits for it. Memory holds a few batches of records.
//
// prep, when set, runs on the decoding cores too, right after a record is decoded: what
// it returns is handed to fn with the record (work of a record's own that needs no other
// record, such as converting it, so the in-order part keeps only what depends on order).
type ahead struct {
	file    string
	keep    keys
	prep    func(line int, where string, rec map[string]any) any
	fn      func(line int, where string, rec map[string]any, prepped any) error
	bufHint int // the last batch's bytes: the next batch's buffer starts that large
	b       *aheadBatch
	work    chan *aheadBatch
	ordered chan *aheadBatch
	stop    chan struct{} // closed when fn or a record failed: the reader stops adding
	done    chan struct{} // closed when the consumer has returned
	err     error         // the consumer's: fn's, or the first bad record's
	wg      sync.WaitGroup
}

// aheadBatch is a run of consecutive records decoded by one worker.
type aheadBatch struct {
	buf    []byte
	ends   []int
	lines  []int
	wheres []string
	ats    []int64 // a document element's offset in the file (-1 for a line)
	recs   []map[string]any
	preps  []any // prep's, when the ahead has one
	err    error // the first bad record's; later ones are not decoded
	done   chan struct{}
}

const (
	aheadRecords = 64
	aheadBytes   = 1 << 20
)

// What add's at says besides a document element's offset.
const (
	aheadLine   = -1 // a JSONL line
	aheadFields = -2 // an object the reader put together of the fields it kept (Inspect)
	aheadMember = -3 // an Inspect `.eval` sample's archive member, still compressed (appendMember)
)

// aheadBufs are batch buffers decoded already, to be filled again.
var aheadBufs sync.Pool

// aheadBuf is an empty batch buffer, from aheadBufs when one is there, else of capacity n.
func aheadBuf(n int) []byte {
	if b, ok := aheadBufs.Get().(*[]byte); ok {
		return *b
	}
	return make([]byte, 0, n)
}

// errAheadStopped tells the reader that the records it adds are no longer read.
var errAheadStopped = errors.New("importer: reading stopped")

func newAhead(file string, keep keys, prep func(line int, where string, rec map[string]any) any, fn func(line int, where string, rec map[string]any, prepped any) error) *ahead {
	workers := max(runtime.GOMAXPROCS(0), 1)
	a := &ahead{file: file, keep: keep, prep: prep, fn: fn, work: make(chan *aheadBatch, workers),
		ordered: make(chan *aheadBatch, 2*workers), stop: make(chan struct{}), done: make(chan struct{})}
	a.b = a.newBatch()
	for range workers {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			var scratch *eval.Scratch // prep takes what it needs of a record: its maps serve the next
			if prep != nil && keep.paths != nil {
				scratch = &eval.Scratch{}
			}
			var members memberDecoder
			for b := range a.work {
				b.decode(a.file, a.keep, a.prep, scratch, &members)
				close(b.done)
			}
		}()
	}
	go a.consume()
	return a
}

func (a *ahead) newBatch() *aheadBatch {
	return &aheadBatch{done: make(chan struct{}), buf: aheadBuf(a.bufHint),
		ends: make([]int, 0, aheadRecords), lines: make([]int, 0, aheadRecords),
		wheres: make([]string, 0, aheadRecords), ats: make([]int64, 0, aheadRecords)}
}

func (a *ahead) consume() {
	defer close(a.done)
	for b := range a.ordered {
		<-b.done
		if a.err != nil {
			continue // drain: the reader may still be handing over batches
		}
		for k, rec := range b.recs {
			var p any
			if b.preps != nil {
				p = b.preps[k]
			}
			if err := a.fn(b.lines[k], b.wheres[k], rec, p); err != nil {
				a.err = err
				break
			}
		}
		if a.err == nil && b.err != nil {
			a.err = b.err
		}
		if a.err != nil {
			close(a.stop)
		}
	}
}

// add hands one record's bytes (copied) to be decoded: a JSONL line (at aheadLine), a
// document's element starting at byte offset at, kept fields (aheadFields) or an archive
// member (aheadMember). It fails once the records are no longer read (fn or a record
// failed: close says which).
func (a *ahead) add(line int, where string, at int64, raw []byte) error {
	b := a.b
	b.buf = append(b.buf, raw...)
	b.ends = append(b.ends, len(b.buf))
	b.lines = append(b.lines, line)
	b.wheres = append(b.wheres, where)
	b.ats = append(b.ats, at)
	if len(b.lines) >= aheadRecords || len(b.buf) >= aheadBytes {
		return a.send()
	}
	return nil
}

func (a *ahead) send() error {
	b := a.b
	if len(b.lines) == 0 {
		return nil
	}
	a.bufHint = min(len(b.buf)+len(b.buf)/8, aheadBytes+MaxRecordBytes/64)
	a.b = a.newBatch()
	select {
	case a.ordered <- b:
	case <-a.stop:
		return errAheadStopped
	}
	select {
	case a.work <- b:
	case <-a.stop:
		close(b.done) // never decoded; the consumer skips it
		return errAheadStopped
	}
	return nil
}

// close waits for every record added to be decoded and handed to fn, and returns the
// first error in file order: fn's or a bad record's, else the reader's readErr.
func (a *ahead) close(readErr error) error {
	if !errors.Is(readErr, errAheadStopped) { // the records before a reader's error come first
		if err := a.send(); err != nil && readErr == nil {
			readErr = err
		}
	}
	close(a.work)
	close(a.ordered)
	<-a.done
	a.wg.Wait()
	if a.err != nil {
		return a.err
	}
	if errors.Is(readErr, errAheadStopped) {
		return nil
	}
	return readErr
}

// decode decodes (and preps) the batch's records up to the first bad one. With scratch,
// the objects keep.paths filters are scratch's maps, emptied once prep is done with the
// record (fn then gets the record emptied: only whether it is nil tells).
func (b *aheadBatch) decode(file string, keep keys, prep func(line int, where string, rec map[string]any) any, scratch *eval.Scratch, members *memberDecoder) {
	b.recs = make([]map[string]any, 0, len(b.lines))
	if prep != nil {
		b.preps = make([]any, 0, len(b.lines))
	}
	start := 0
	for i, end := range b.ends {
		raw := b.buf[start:end]
		start = end
		var rec map[string]any
		var err error
		switch b.ats[i] {
		case aheadLine:
			rec, err = decodeLine(file, b.lines[i], raw, keep, scratch)
		case aheadFields:
			rec, err = decodeFields(file, b.wheres[i], raw)
		case aheadMember:
			rec, err = members.decode(file, b.wheres[i], raw, prep != nil)
		default:
			rec, err = decodeElement(file, b.wheres[i], b.ats[i], raw, keep, scratch)
		}
		if err != nil {
			if scratch != nil {
				scratch.Release()
			}
			b.err = err
			break
		}
		b.recs = append(b.recs, rec)
		if prep != nil {
			b.preps = append(b.preps, prep(b.lines[i], b.wheres[i], rec))
		}
		if scratch != nil {
			scratch.Release()
		}
		if b.ats[i] == aheadMember {
			members.done() // prep took what it needs: fn gets the record emptied
		}
	}
	if cap(b.buf) <= 2*aheadBytes { // the decoded records hold copies: the buffer serves again
		buf := b.buf[:0]
		aheadBufs.Put(&buf)
	}
	b.buf = nil
}

// decodeElement decodes a document's list element (its bytes raw, from byte offset at)
// as an object, or null (nil); where names it in messages.
func decodeElement(file, where string, at int64, raw []byte, keep keys, scratch *eval.Scratch) (map[string]any, error) {
	d := &docDecoder{file: file} // for its messages
	if c := raw[0]; c != '{' && c != 'n' {
		return nil, errAt(file, 0, where, "", "want an object, found %s", d.found(c))
	}
	if m, ok := decodeFast(raw, keep, scratch); ok {
		return m, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			err = &syntaxErr{at + se.Offset, se.Error()} // at counts from 0, Offset from 1
		}
		return nil, d.err(where, err)
	}
	return m, nil
}

// decodeFields decodes an object the reader put together of a record's kept fields (their
// bytes as the file has them, only found, not checked): a malformed one is named by where,
// without an offset (the object is not the file's).
func decodeFields(file, where string, raw []byte) (map[string]any, error) {
	if m, ok := decodeFast(raw, keys{}, nil); ok {
		return m, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		if fixed, ok := nonFiniteToNull(raw); ok && json.Unmarshal(fixed, &m) == nil {
			return m, nil
		}
		return nil, errAt(file, 0, where, "", "malformed JSON: %v", err)
	}
	return m, nil
}
